#!/usr/bin/env node
// npm pack / publish: the tarball ships dist/ built, so an install must not build. `prepare` (which builds a clone on
// `npm install`) is therefore taken out of package.json for the pack (prepack: `strip`) and put back after it
// (postpack: `restore`); npm reads the manifest it packs after prepack runs.
'use strict';
const fs = require('fs');
const path = require('path');

const manifest = path.join(__dirname, '..', 'package.json');
const saved = path.join(__dirname, '..', '.package.json.pack-backup');

if (process.argv[2] === 'strip') {
  const text = fs.readFileSync(manifest, 'utf8');
  fs.writeFileSync(saved, text);
  const json = JSON.parse(text);
  for (const name of ['prepare', 'pretest', 'prepack', 'postpack']) delete json.scripts[name];
  fs.writeFileSync(manifest, JSON.stringify(json, null, 2) + '\n');
} else if (process.argv[2] === 'restore') {
  if (fs.existsSync(saved)) fs.renameSync(saved, manifest);
} else {
  console.error('usage: pack-manifest.js strip|restore');
  process.exit(2);
}

// Saves spec/'s tables as their zod schemas validate them (dist/spec/tables.json), with a hash of the files they
// came from and their sizes and times: a run of the tools reads this copy instead of loading zod and validating every
// table again (src/spec/tables.ts), and validates spec/ itself when the files have changed. tsc has built dist/.
const fs = require('fs');
const { SAVED_TABLES_FILE, SPEC_DIR, specHash, specStamps } = require('../dist/spec/tables.js');
const { validateSpec } = require('../dist/spec/validate-tables.js');
fs.writeFileSync(SAVED_TABLES_FILE, JSON.stringify({ hash: specHash(SPEC_DIR), stamps: specStamps(SPEC_DIR), tables: validateSpec(SPEC_DIR) }));
// The cost model's tables (spec/costmodel) likewise, for runs that estimate time (src/spec/costmodel.ts).
const costmodel = require('../dist/spec/costmodel.js');
fs.writeFileSync(costmodel.SAVED_COSTMODEL_FILE, JSON.stringify({ stamps: costmodel.costModelStamps(), tables: costmodel.validateCostModel() }));

// A minimal stand-in for googletest, enough to build and run pto-isa's perf_sim tests
// (tests/costmodel/perf_sim_st, tests/costmodel/st/*_perf_sim) where googletest is not installed
// and cannot be fetched. Written for this project; it is not googletest's code.
//
// It offers TEST(Suite, Name), EXPECT_/ASSERT_ {TRUE, FALSE, EQ, NE, LT, LE, GT, GE} with `<< message`,
// and a main() that runs every registered test in registration order, or those selected by
// --gtest_filter=POSITIVE[:POSITIVE...][-NEGATIVE[:NEGATIVE...]] (`*` and `?` wildcards, as gtest reads it).
// --gtest_list_tests prints the tests as "Suite.Name" one a line. The exit status is 1 when a check failed.
// AfterEach() holds an optional function run after each test.
// Define GTEST_STANDIN_NO_MAIN before including it in all but one file of a multi-file program.
#ifndef PTO_AS_GTEST_STANDIN_H
#define PTO_AS_GTEST_STANDIN_H

#include <cstdio>
#include <cstring>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

namespace gtest_standin {

struct TestCase {
    std::string suite;
    std::string name;
    void (*body)();
};

// Function-local statics: registrations run during static initialisation, in any order of files.
inline std::vector<TestCase> &Registry()
{
    static std::vector<TestCase> tests;
    return tests;
}

inline bool &CurrentFailed()
{
    static bool failed = false;
    return failed;
}

// Called after each test with its "Suite.Name" and whether it failed, when set: lets a -include'd header
// of ours report what the code under test recorded (scripts/vfsim/report.h) without editing the tests.
using AfterEachHook = void (*)(const std::string &full, bool failed);
inline AfterEachHook &AfterEach()
{
    static AfterEachHook hook = nullptr;
    return hook;
}

inline bool Register(const char *suite, const char *name, void (*body)())
{
    Registry().push_back({suite, name, body});
    return true;
}

// Collects the text a test streams after a failed check.
class Message {
public:
    template <typename T>
    Message &operator<<(const T &value)
    {
        text_ << value;
        return *this;
    }
    std::string str() const
    {
        return text_.str();
    }

private:
    std::ostringstream text_;
};

// `Failure(...) = Message() << ...` reports when assigned; operator= yields void so that ASSERT_* can
// `return` it from a void test body, as gtest's own macros do.
class Failure {
public:
    Failure(const char *file, int line, std::string what) : file_(file), line_(line), what_(std::move(what)) {}
    void operator=(const Message &message) const
    {
        CurrentFailed() = true;
        std::cout << file_ << ":" << line_ << ": Failure\n" << what_ << "\n";
        const std::string extra = message.str();
        if (!extra.empty())
            std::cout << extra << "\n";
    }

private:
    const char *file_;
    int line_;
    std::string what_;
};

template <typename T>
std::string Show(const T &value)
{
    if constexpr (requires(std::ostream &os, const T &v) { os << v; }) {
        std::ostringstream os;
        os << value;
        return os.str();
    } else {
        return "(unprintable value)";
    }
}

template <typename A, typename B>
std::string Compared(const char *op, const char *a_text, const char *b_text, const A &a, const B &b)
{
    return std::string("Expected: (") + a_text + ") " + op + " (" + b_text + "), actual: " + Show(a) + " vs " +
           Show(b);
}

// gtest's wildcard rules: `*` any run of characters, `?` one character.
inline bool WildcardMatch(const char *pattern, const char *text)
{
    if (*pattern == '\0')
        return *text == '\0';
    if (*pattern == '*')
        return WildcardMatch(pattern + 1, text) || (*text != '\0' && WildcardMatch(pattern, text + 1));
    if (*text == '\0')
        return false;
    return (*pattern == '?' || *pattern == *text) && WildcardMatch(pattern + 1, text + 1);
}

inline bool MatchesAny(const std::string &patterns, const std::string &name)
{
    std::size_t start = 0;
    while (start <= patterns.size()) {
        std::size_t end = patterns.find(':', start);
        if (end == std::string::npos)
            end = patterns.size();
        if (WildcardMatch(patterns.substr(start, end - start).c_str(), name.c_str()))
            return true;
        start = end + 1;
    }
    return false;
}

inline bool Selected(const std::string &filter, const std::string &name)
{
    const std::size_t dash = filter.find('-');
    std::string positive = filter.substr(0, dash);
    if (positive.empty())
        positive = "*";
    if (!MatchesAny(positive, name))
        return false;
    return dash == std::string::npos || !MatchesAny(filter.substr(dash + 1), name);
}

inline int RunAll(int argc, char **argv)
{
    std::string filter = "*";
    bool list = false;
    for (int i = 1; i < argc; ++i) {
        const char *arg = argv[i];
        if (std::strncmp(arg, "--gtest_filter=", 15) == 0)
            filter = arg + 15;
        else if (std::strcmp(arg, "--gtest_list_tests") == 0)
            list = true;
    }
    int ran = 0;
    std::vector<std::string> failed;
    for (const TestCase &test : Registry()) {
        const std::string full = test.suite + "." + test.name;
        if (!Selected(filter, full))
            continue;
        if (list) {
            std::cout << full << "\n";
            continue;
        }
        ++ran;
        CurrentFailed() = false;
        std::cout << "[ RUN      ] " << full << std::endl;
        test.body();
        if (AfterEach())
            AfterEach()(full, CurrentFailed());
        std::cout << (CurrentFailed() ? "[  FAILED  ] " : "[       OK ] ") << full << std::endl;
        if (CurrentFailed())
            failed.push_back(full);
    }
    if (list)
        return 0;
    std::cout << "[==========] " << ran << " tests ran, " << failed.size() << " failed" << std::endl;
    for (const std::string &name : failed)
        std::cout << "[  FAILED  ] " << name << std::endl;
    return failed.empty() ? 0 : 1;
}

} // namespace gtest_standin

#define TEST(suite, name)                                                                                    \
    static void suite##_##name##_StandinTest();                                                              \
    [[maybe_unused]] static const bool suite##_##name##_standin_registered =                                 \
        ::gtest_standin::Register(#suite, #name, &suite##_##name##_StandinTest);                             \
    static void suite##_##name##_StandinTest()

// The switch keeps an `else` written after the macro from binding to the macro's own `if`.
#define GTEST_STANDIN_CHECK_(ok, what, on_fail) \
    switch (0)                                  \
    case 0:                                     \
    default:                                    \
        if (ok) {                               \
        } else                                  \
            on_fail ::gtest_standin::Failure(__FILE__, __LINE__, what) = ::gtest_standin::Message()

#define GTEST_STANDIN_BOOL_(cond, expected, on_fail)                                                     \
    GTEST_STANDIN_CHECK_(static_cast<bool>(cond) == (expected),                                          \
                         std::string("Value of: ") + #cond + "\n  Actual: " + ((expected) ? "false" : "true") + \
                             "\nExpected: " + ((expected) ? "true" : "false"),                           \
                         on_fail)

#define GTEST_STANDIN_CMP_(a, b, op, on_fail)                                                                  \
    GTEST_STANDIN_CHECK_((a)op(b), ::gtest_standin::Compared(#op, #a, #b, (a), (b)), on_fail)

#define EXPECT_TRUE(cond) GTEST_STANDIN_BOOL_(cond, true, )
#define EXPECT_FALSE(cond) GTEST_STANDIN_BOOL_(cond, false, )
#define EXPECT_EQ(a, b) GTEST_STANDIN_CMP_(a, b, ==, )
#define EXPECT_NE(a, b) GTEST_STANDIN_CMP_(a, b, !=, )
#define EXPECT_LT(a, b) GTEST_STANDIN_CMP_(a, b, <, )
#define EXPECT_LE(a, b) GTEST_STANDIN_CMP_(a, b, <=, )
#define EXPECT_GT(a, b) GTEST_STANDIN_CMP_(a, b, >, )
#define EXPECT_GE(a, b) GTEST_STANDIN_CMP_(a, b, >=, )
#define ASSERT_TRUE(cond) GTEST_STANDIN_BOOL_(cond, true, return)
#define ASSERT_FALSE(cond) GTEST_STANDIN_BOOL_(cond, false, return)
#define ASSERT_EQ(a, b) GTEST_STANDIN_CMP_(a, b, ==, return)
#define ASSERT_NE(a, b) GTEST_STANDIN_CMP_(a, b, !=, return)
#define ASSERT_LT(a, b) GTEST_STANDIN_CMP_(a, b, <, return)
#define ASSERT_LE(a, b) GTEST_STANDIN_CMP_(a, b, <=, return)
#define ASSERT_GT(a, b) GTEST_STANDIN_CMP_(a, b, >, return)
#define ASSERT_GE(a, b) GTEST_STANDIN_CMP_(a, b, >=, return)

#ifndef GTEST_STANDIN_NO_MAIN
int main(int argc, char **argv)
{
    return ::gtest_standin::RunAll(argc, argv);
}
#endif

#endif

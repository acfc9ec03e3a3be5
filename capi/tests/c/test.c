/*
 * Every function of bpvm.h and every error path, from C, plus eight
 * threads evaluating one shared program and environment.
 *
 * Usage: test EXAMPLES_DIR OUT_DIR
 *   EXAMPLES_DIR holds windsor/ and bluelink/ (the repository's examples);
 *   the renders are also written to OUT_DIR (windsor.yaml, windsor.json,
 *   bluelink.yaml) for the caller to compare with the CLI's.
 * Exit status: 0 when every check passed.
 */
#include "bpvm.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int failures = 0;
static int checks = 0;

#define CHECK(cond, ...)                                                   \
    do {                                                                   \
        checks++;                                                          \
        if (!(cond)) {                                                     \
            failures++;                                                    \
            fprintf(stderr, "FAIL %s:%d: %s: ", __FILE__, __LINE__, #cond); \
            fprintf(stderr, __VA_ARGS__);                                  \
            fprintf(stderr, "\n");                                         \
        }                                                                  \
    } while (0)

/* A call failed with `rc`, and `err` holds `needle`; frees `err`. */
static void expect_error(int rc, char *err, const char *needle, const char *what) {
    CHECK(rc != 0, "%s: expected an error, got success", what);
    CHECK(err != NULL, "%s: expected an error message", what);
    if (err != NULL) {
        CHECK(strstr(err, needle) != NULL, "%s: %s not in the message: %s", what, needle, err);
    }
    bpvm_string_free(err);
}

/* A call succeeded and left `err` NULL. */
static void expect_success(int rc, char *err, const char *what) {
    CHECK(rc == 0, "%s: failed: %s", what, err ? err : "(no message)");
    CHECK(err == NULL, "%s: err is set on success", what);
    bpvm_string_free(err);
}

static char *join(const char *dir, const char *name) {
    size_t n = strlen(dir) + strlen(name) + 2;
    char *path = malloc(n);
    snprintf(path, n, "%s/%s", dir, name);
    return path;
}

static void save(const char *dir, const char *name, const char *text) {
    char *path = join(dir, name);
    FILE *f = fopen(path, "w");
    CHECK(f != NULL, "cannot write %s", path);
    if (f != NULL) {
        fputs(text, f);
        fclose(f);
    }
    free(path);
}

static bpvm_program *compiled(const char *dialect, const char *source, int template_mode) {
    char *err = (char *)1;
    bpvm_program *p = bpvm_compile(dialect, source, template_mode, &err);
    CHECK(p != NULL, "compile %s: %s", source, err ? err : "(no message)");
    CHECK(err == NULL, "compile %s: err is set on success", source);
    bpvm_string_free(err);
    return p;
}

static void test_version(void) {
    const char *v = bpvm_version();
    CHECK(v != NULL && v[0] >= '0' && v[0] <= '9', "version %s", v ? v : "(NULL)");
    CHECK(bpvm_version() == v, "the version string is static");
}

static void test_compile(void) {
    char *err = NULL;
    bpvm_program *p;

    p = bpvm_compile(NULL, "1", 0, &err);
    CHECK(p == NULL, "NULL dialect compiles");
    expect_error(1, err, "dialect is NULL", "NULL dialect");

    p = bpvm_compile("windsor", NULL, 0, &err);
    CHECK(p == NULL, "NULL source compiles");
    expect_error(1, err, "source is NULL", "NULL source");

    p = bpvm_compile("expr", "1", 0, &err);
    CHECK(p == NULL, "a bad dialect compiles");
    expect_error(1, err, "expected \"windsor\", \"windsor-v0.9\" or \"bluelink\"", "bad dialect");

    p = bpvm_compile("windsor", "\xff\xfe", 0, &err);
    CHECK(p == NULL, "invalid UTF-8 compiles");
    expect_error(1, err, "not valid UTF-8", "invalid UTF-8");

    p = bpvm_compile("windsor", "a == (1 +", 0, &err);
    CHECK(p == NULL, "a syntax error compiles");
    CHECK(err != NULL && strncmp(err, "error: ", 7) == 0, "syntax error: %s", err ? err : "(NULL)");
    CHECK(err != NULL && strstr(err, "1:") != NULL, "syntax error without line:column: %s", err ? err : "(NULL)");
    expect_error(1, err, "^", "syntax error caret");

    /* An error with err NULL: no message, no crash. */
    CHECK(bpvm_compile("nope", "1", 0, NULL) == NULL, "a bad dialect compiles with err NULL");

    p = compiled("windsor", "1 + 2", 0);
    bpvm_program_free(p);
    p = compiled("windsor", "name-${1 + 2}", 1);
    bpvm_program_free(p);
    p = compiled("bluelink", "${variables.x}", 1);
    bpvm_program_free(p);
    bpvm_program_free(NULL);
}

static void test_env(void) {
    char *err = NULL;
    bpvm_env *e;

    e = bpvm_env_from_json(NULL, &err);
    CHECK(e == NULL, "NULL json parses");
    expect_error(1, err, "json is NULL", "NULL json");

    e = bpvm_env_from_yaml(NULL, &err);
    CHECK(e == NULL, "NULL yaml parses");
    expect_error(1, err, "yaml is NULL", "NULL yaml");

    e = bpvm_env_from_json("{\"a\": ", &err);
    CHECK(e == NULL, "bad JSON parses");
    expect_error(1, err, "error: ", "bad JSON");

    e = bpvm_env_from_yaml("a: [1, 2\nb: {", &err);
    CHECK(e == NULL, "bad YAML parses");
    expect_error(1, err, "error: ", "bad YAML");

    e = bpvm_env_from_json("{\"a\": \"\xff\"}", &err);
    CHECK(e == NULL, "invalid UTF-8 JSON parses");
    expect_error(1, err, "not valid UTF-8", "invalid UTF-8 JSON");

    e = bpvm_env_from_json("{\"a\": 1}", &err);
    CHECK(e != NULL, "JSON env: %s", err ? err : "");
    expect_success(0, err, "JSON env");
    bpvm_env_free(e);

    e = bpvm_env_from_yaml("a: 1\n", &err);
    CHECK(e != NULL, "YAML env: %s", err ? err : "");
    expect_success(0, err, "YAML env");
    bpvm_env_free(e);
    bpvm_env_free(NULL);
    bpvm_string_free(NULL);
}

static void test_eval(void) {
    char *err = NULL, *out = NULL;
    int yes = -1, rc;
    bpvm_env *e = bpvm_env_from_yaml("provider: aws\nn: 2\ncluster: {enabled: true}\n", &err);
    CHECK(e != NULL, "env: %s", err ? err : "");
    bpvm_program *map = compiled("windsor", "{'a': n * 2, 'b': provider}", 0);
    bpvm_program *cond = compiled("windsor", "provider == 'aws' && cluster.enabled", 0);
    bpvm_program *nil = compiled("windsor", "missing", 0);
    bpvm_program *num = compiled("windsor", "n", 0);
    bpvm_program *tmpl = compiled("windsor", "${provider}-${n}", 1);
    bpvm_program *bad = compiled("windsor", "int(provider)", 0);

    rc = bpvm_eval_json(map, e, &out, &err);
    expect_success(rc, err, "eval_json");
    CHECK(out != NULL && strcmp(out, "{\"a\":4,\"b\":\"aws\"}") == 0, "eval_json gave %s", out ? out : "(NULL)");
    bpvm_string_free(out);
    out = NULL;

    rc = bpvm_eval_json(tmpl, e, &out, &err);
    expect_success(rc, err, "eval_json template");
    CHECK(out != NULL && strcmp(out, "\"aws-2\"") == 0, "template gave %s", out ? out : "(NULL)");
    bpvm_string_free(out);
    out = NULL;

    rc = bpvm_eval_json(NULL, e, &out, &err);
    expect_error(rc, err, "program is NULL", "eval_json NULL program");
    rc = bpvm_eval_json(map, NULL, &out, &err);
    expect_error(rc, err, "env is NULL", "eval_json NULL env");
    rc = bpvm_eval_json(map, e, NULL, &err);
    expect_error(rc, err, "out_json is NULL", "eval_json NULL out_json");
    CHECK(bpvm_eval_json(NULL, NULL, NULL, NULL) != 0, "eval_json with nothing succeeds");
    rc = bpvm_eval_json(bad, e, &out, &err);
    expect_error(rc, err, "int() cannot parse \"aws\" as an integer", "eval_json failing at run time");
    CHECK(out == NULL, "out is set on error");

    rc = bpvm_eval_bool(cond, e, &yes, &err);
    expect_success(rc, err, "eval_bool true");
    CHECK(yes == 1, "eval_bool gave %d", yes);
    rc = bpvm_eval_bool(nil, e, &yes, &err);
    expect_success(rc, err, "eval_bool nil");
    CHECK(yes == 0, "nil gave %d", yes);
    rc = bpvm_eval_bool(num, e, &yes, &err);
    expect_error(rc, err, "a condition must give a bool, got int", "eval_bool int");
    rc = bpvm_eval_bool(NULL, e, &yes, &err);
    expect_error(rc, err, "program is NULL", "eval_bool NULL program");
    rc = bpvm_eval_bool(cond, NULL, &yes, &err);
    expect_error(rc, err, "env is NULL", "eval_bool NULL env");
    rc = bpvm_eval_bool(cond, e, NULL, &err);
    expect_error(rc, err, "out is NULL", "eval_bool NULL out");
    rc = bpvm_eval_bool(bad, e, &yes, &err);
    expect_error(rc, err, "^^^", "eval_bool failing at run time");

    /* The same expression by the seed rules and by Windsor v0.9's. */
    bpvm_program *seed = compiled("windsor", "true && missing", 0);
    bpvm_program *v09 = compiled("windsor-v0.9", "true && missing", 0);
    rc = bpvm_eval_json(seed, e, &out, &err);
    expect_success(rc, err, "eval_json by the seed rules");
    CHECK(out != NULL && strcmp(out, "false") == 0, "seed rules gave %s", out ? out : "(NULL)");
    bpvm_string_free(out);
    out = NULL;
    rc = bpvm_eval_json(v09, e, &out, &err);
    expect_success(rc, err, "eval_json by the v0.9 rules");
    CHECK(out != NULL && strcmp(out, "null") == 0, "v0.9 rules gave %s", out ? out : "(NULL)");
    bpvm_string_free(out);
    out = NULL;
    bpvm_program_free(seed);
    bpvm_program_free(v09);

    bpvm_program_free(map);
    bpvm_program_free(cond);
    bpvm_program_free(nil);
    bpvm_program_free(num);
    bpvm_program_free(tmpl);
    bpvm_program_free(bad);
    bpvm_env_free(e);
}

static void test_render_windsor(const char *examples, const char *out_dir) {
    char *err = NULL, *out = NULL;
    int rc;
    char *project = join(examples, "windsor");

    rc = bpvm_render_windsor(project, NULL, NULL, &out, &err);
    expect_success(rc, err, "render windsor");
    CHECK(out != NULL && strlen(out) > 0, "empty windsor render");
    if (out != NULL) {
        save(out_dir, "windsor.yaml", out);
    }
    bpvm_string_free(out);
    out = NULL;

    rc = bpvm_render_windsor(project, "local", "{\"output\": \"json\", \"rules\": \"auto\"}", &out, &err);
    expect_success(rc, err, "render windsor json");
    CHECK(out != NULL && out[0] == '{', "windsor json render: %s", out ? out : "(NULL)");
    if (out != NULL) {
        save(out_dir, "windsor.json", out);
    }
    bpvm_string_free(out);
    out = NULL;

    rc = bpvm_render_windsor("/nonexistent/bpvm-project", NULL, NULL, &out, &err);
    expect_error(rc, err, "is not a folder", "missing project");
    rc = bpvm_render_windsor(project, "no-such-context", NULL, &out, &err);
    expect_error(rc, err, "error: ", "missing context");
    rc = bpvm_render_windsor(project, NULL, "{\"ouptut\": \"json\"}", &out, &err);
    expect_error(rc, err, "did you mean \"output\"", "bad options key");
    rc = bpvm_render_windsor(project, NULL, "{\"output\": \"xml\"}", &out, &err);
    expect_error(rc, err, "\"output\" must be one of", "bad output");
    rc = bpvm_render_windsor(project, NULL, "{\"output\": ", &out, &err);
    expect_error(rc, err, "options_json", "bad options JSON");
    rc = bpvm_render_windsor(project, NULL, "{\"seed\": 1}", &out, &err);
    expect_error(rc, err, "unknown key \"seed\"", "a Bluelink key for Windsor");
    rc = bpvm_render_windsor(NULL, NULL, NULL, &out, &err);
    expect_error(rc, err, "project_dir is NULL", "NULL project_dir");
    rc = bpvm_render_windsor(project, NULL, NULL, NULL, &err);
    expect_error(rc, err, "out is NULL", "NULL out");
    CHECK(out == NULL, "out is set on error");
    free(project);
}

static void test_render_bluelink(const char *examples, const char *out_dir) {
    char *err = NULL, *out = NULL;
    int rc;
    char *blueprint = join(examples, "bluelink/blueprint.yaml");
    char *vars = join(examples, "bluelink/blueprint.vars.yaml");
    char *datasources = join(examples, "bluelink/blueprint.datasources.yaml");
    char options[4096];
    snprintf(options, sizeof options, "{\"vars\": \"%s\", \"datasources\": \"%s\", \"seed\": 7}", vars, datasources);

    rc = bpvm_render_bluelink(blueprint, options, &out, &err);
    expect_success(rc, err, "render bluelink");
    CHECK(out != NULL && strlen(out) > 0, "empty bluelink render");
    CHECK(out != NULL && strstr(out, "correct-horse") == NULL, "a secret is shown");
    if (out != NULL) {
        save(out_dir, "bluelink.yaml", out);
    }
    bpvm_string_free(out);
    out = NULL;

    rc = bpvm_render_bluelink(blueprint, NULL, &out, &err);
    expect_error(rc, err, "environment", "a required variable missing");
    rc = bpvm_render_bluelink("/nonexistent/blueprint.yaml", NULL, &out, &err);
    expect_error(rc, err, "cannot read the blueprint", "missing blueprint");
    rc = bpvm_render_bluelink(blueprint, "{\"var\": [\"environment\"]}", &out, &err);
    expect_error(rc, err, "expected NAME=VALUE", "bad --var");
    rc = bpvm_render_bluelink(blueprint, "{\"show_secret\": true}", &out, &err);
    expect_error(rc, err, "did you mean \"show_secrets\"", "bad options key");
    rc = bpvm_render_bluelink(blueprint, "{\"seed\": \"x\"}", &out, &err);
    expect_error(rc, err, "\"seed\" must be a non-negative integer", "bad seed");
    rc = bpvm_render_bluelink(blueprint, "{\"now\": \"yesterday\"}", &out, &err);
    expect_error(rc, err, "is not an RFC 3339 time", "bad now");
    rc = bpvm_render_bluelink(blueprint, "[]", &out, &err);
    expect_error(rc, err, "must be a JSON object", "options not an object");
    rc = bpvm_render_bluelink(NULL, NULL, &out, &err);
    expect_error(rc, err, "blueprint_path is NULL", "NULL blueprint_path");
    rc = bpvm_render_bluelink(blueprint, NULL, NULL, &err);
    expect_error(rc, err, "out is NULL", "NULL out");
    rc = bpvm_render_bluelink(blueprint, "{\"output\": \"\xff\"}", &out, &err);
    expect_error(rc, err, "not valid UTF-8", "invalid UTF-8 options");
    CHECK(out == NULL, "out is set on error");
    free(blueprint);
    free(vars);
    free(datasources);
}

/* What the threads share, and what one thread got alone. */
struct shared {
    const bpvm_program *value;
    const bpvm_program *cond;
    const bpvm_env *env;
    const char *expected_json;
    int expected_bool;
    int mismatches;
};

#define ROUNDS 500

static void *evaluate(void *arg) {
    struct shared *s = arg;
    int mismatches = 0;
    for (int i = 0; i < ROUNDS; i++) {
        char *out = NULL, *err = NULL;
        int yes = -1;
        if (bpvm_eval_json(s->value, s->env, &out, &err) != 0 || strcmp(out, s->expected_json) != 0) {
            mismatches++;
        }
        bpvm_string_free(out);
        bpvm_string_free(err);
        err = NULL;
        if (bpvm_eval_bool(s->cond, s->env, &yes, &err) != 0 || yes != s->expected_bool) {
            mismatches++;
        }
        bpvm_string_free(err);
    }
    s->mismatches = mismatches;
    return NULL;
}

static void test_threads(void) {
    enum { THREADS = 8 };
    char *err = NULL, *alone = NULL;
    int yes = -1;
    bpvm_env *e = bpvm_env_from_yaml(
        "cluster: {nodes: [{name: a, cpu: 2}, {name: b, cpu: 4}, {name: c, cpu: 8}], enabled: true}\nprovider: aws\n", &err);
    CHECK(e != NULL, "env: %s", err ? err : "");
    bpvm_program *value = compiled("windsor", "{'names': map(filter(cluster.nodes, .cpu > 2), .name), 'double': map(cluster.nodes, .cpu * 2)}", 0);
    bpvm_program *cond = compiled("windsor", "provider == 'aws' && len(cluster.nodes) == 3", 0);
    CHECK(bpvm_eval_json(value, e, &alone, &err) == 0, "alone: %s", err ? err : "");
    CHECK(bpvm_eval_bool(cond, e, &yes, &err) == 0, "alone: %s", err ? err : "");

    struct shared s[THREADS];
    pthread_t threads[THREADS];
    for (int t = 0; t < THREADS; t++) {
        s[t] = (struct shared){value, cond, e, alone, yes, -1};
        CHECK(pthread_create(&threads[t], NULL, evaluate, &s[t]) == 0, "pthread_create");
    }
    for (int t = 0; t < THREADS; t++) {
        pthread_join(threads[t], NULL);
        CHECK(s[t].mismatches == 0, "thread %d: %d results differ from one thread's", t, s[t].mismatches);
    }
    bpvm_string_free(alone);
    bpvm_program_free(value);
    bpvm_program_free(cond);
    bpvm_env_free(e);
}

int main(int argc, char **argv) {
    if (argc != 3) {
        fprintf(stderr, "usage: %s EXAMPLES_DIR OUT_DIR\n", argv[0]);
        return 2;
    }
    test_version();
    test_compile();
    test_env();
    test_eval();
    test_render_windsor(argv[1], argv[2]);
    test_render_bluelink(argv[1], argv[2]);
    test_threads();
    printf("%d checks, %d failed\n", checks, failures);
    return failures == 0 ? 0 : 1;
}

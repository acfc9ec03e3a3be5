/*
 * bpvm.h: the C ABI of bpvm. Compile a blueprint expression once, evaluate
 * it many times against environments, and render whole Windsor projects and
 * Bluelink blueprints. Link with libbpvm_capi.so, or with libbpvm_capi.a and
 * -lgcc_s -lutil -lrt -lpthread -lm -ldl -lc (Linux).
 *
 * Errors. A function returning int returns 0 on success and non-zero on
 * error; one returning a pointer returns NULL on error. On error, when
 * `err` is not NULL, `*err` is set to the message, exactly as the `bpvm`
 * CLI prints it on stderr (a compile error has its line:column and a caret
 * under the spot); on success `*err` is set to NULL. NULL where a value is
 * required, and text that is not UTF-8, are errors. A panic inside the
 * library is returned as the error "internal error: ...", never unwound
 * into the caller.
 *
 * Who frees what. Every `char *` the library hands out (`*out`,
 * `*out_json`, `*err`) is the caller's, freed with bpvm_string_free. A
 * program is freed with bpvm_program_free, an environment with
 * bpvm_env_free. bpvm_version's string is static: never free it. Strings
 * passed in stay the caller's and are not kept.
 *
 * Threads. Every function may be called from any thread. Programs and
 * environments are immutable: one of each may be evaluated by many threads
 * at once (each thread evaluates on a VM of its own). Only freeing one
 * needs the other threads to be done with it.
 *
 * options_json (bpvm_render_windsor, bpvm_render_bluelink): NULL, "" or a
 * JSON object whose keys are the long flags of `bpvm render` in
 * snake_case; an unknown key is an error that names the closest known one.
 * Both renders:
 *   "output": "yaml" (default) | "json"                   -o/--output
 *   "show_secrets": bool                                  --show-secrets
 * bpvm_render_windsor:
 *   "no_schema_defaults": bool                            --no-schema-defaults
 *   "rules": "auto" (default) | "seed" | "v0.9"           --rules
 *   "compile_flux": bool                                  --compile-flux
 *   "terraform_outputs": "FILE"                           --terraform-outputs
 *   "allow_env": ["PATTERN", ...] (or one string)         --allow-env (repeatable;
 *                      given, even empty, env() reads only the variables
 *                      these or $BPVM_ALLOW_ENV's patterns match)
 * bpvm_render_bluelink:
 *   "var": ["NAME=VALUE", ...] (or one string)            --var (repeatable)
 *   "vars": "FILE"                                        --vars
 *   "datasources": "FILE"                                 --datasources
 *   "resource_state": "FILE"                              --resource-state
 *   "seed": non-negative integer                          --seed
 *   "now": "RFC3339"                                      --now (*)
 *   "root": "DIR"                                         --root
 *   "allow_http": ["HOST", ...] (or one string)           --allow-http
 * (*) a valid instant is read as the CLI reads it; an invalid one's reason
 * may be worded differently from the CLI's.
 * null for a key is the same as leaving it out. Relative paths are read
 * from the process's current folder, as the CLI reads them. What the CLI
 * writes on stderr beside the result (--explain, the list of values left
 * until deploy time) is not returned; --out is the caller's to do.
 */

#ifndef BPVM_H
#define BPVM_H

/* Generated from capi/src by cbindgen; regenerate with BPVM_UPDATE_HEADER=1 cargo test -p bpvm-capi --test it header:: */

/*
 An environment: the mapping expressions read. Opaque to C; made by
 [`bpvm_env_from_json`] or [`bpvm_env_from_yaml`], freed by
 [`bpvm_env_free`]. Immutable, so one environment may be read by many
 threads at once.
 */
typedef struct bpvm_env bpvm_env;

/*
 A compiled expression or host string. Opaque to C; made by
 [`bpvm_compile`], freed by [`bpvm_program_free`]. Immutable, so one
 program may be evaluated by many threads at once.
 */
typedef struct bpvm_program bpvm_program;

#ifdef __cplusplus
extern "C" {
#endif // __cplusplus

/*
 The library's version, e.g. "0.1.0": a static string, never freed.
 */
const char *bpvm_version(void);

/*
 Frees a string this library handed out (a result or an error); NULL
 is ignored.

 # Safety
 `s` must be NULL or a string from this library not freed before.
 */
void bpvm_string_free(char *s);

/*
 An environment from a JSON mapping (an empty text is an empty one).
 Returns NULL with `*err` set when it is not JSON or not a mapping.

 Speed: an environment reads the paths of programs compiled before it
 was made from slots filled once, and the paths of later programs by
 name (the same results, a lookup per read): compile first, then make
 the environments, as a host compiles its templates and then makes
 each context.

 # Safety
 `json` must be NULL or a NUL-terminated string; `err` must be NULL or
 valid for writing one pointer.
 */
bpvm_env *bpvm_env_from_json(const char *json, char **err);

/*
 An environment from a YAML mapping. Returns NULL with `*err` set when
 it is not YAML or not a mapping.

 # Safety
 As [`bpvm_env_from_json`].
 */
bpvm_env *bpvm_env_from_yaml(const char *yaml, char **err);

/*
 Frees an environment; NULL is ignored.

 # Safety
 `e` must be NULL or an environment from this library not freed before,
 and no other thread may be using it.
 */
void bpvm_env_free(bpvm_env *e);

/*
 Evaluates `p` against `e` and sets `*out_json` to the result as one
 line of JSON (freed with `bpvm_string_free`), exactly as `bpvm eval`
 prints it without flags (nil is `null`, bytes their UTF-8 text; no
 trailing newline). Bluelink's effect functions behave as there:
 `file()` reads inside the process's current folder, `link()` reads the
 environment's `links`, `uuid()` and `datetime()` are not pinned, and
 `http_resource()` may fetch from no host. Returns 0, or non-zero with
 `*err` set.

 # Safety
 `p` and `e` must be NULL or live objects from this library; `out_json`
 and `err` must be NULL or valid for writing one pointer.
 */
int bpvm_eval_json(const bpvm_program *p, const bpvm_env *e, char **out_json, char **err);

/*
 Evaluates the condition `p` against `e` and sets `*out` to 1 or 0: a
 bool is itself, nil is false (as Windsor decides a facet's or
 component's `when:`), anything else is the error "a condition must give
 a bool, got TYPE". Allocates nothing on success once the calling
 thread has evaluated once. Conditions run without the host of
 Bluelink's effect functions: `file()` has no folder to read from and
 fails, `link()` sees no links, `http_resource()` may fetch from no host
 (`uuid()` and `datetime()` work, unpinned); `bpvm_eval_json` has them.
 Returns 0, or non-zero with `*err` set.

 # Safety
 `p` and `e` must be NULL or live objects from this library; `out`
 must be NULL or valid for writing one int; `err` must be NULL or valid
 for writing one pointer.
 */
int bpvm_eval_bool(const bpvm_program *p, const bpvm_env *e, int *out, char **err);

/*
 Compiles `source` in `dialect` — "windsor" (the seed facet format's
 rules: nil counts as false in `&&`, `||`, `!` and `?:`), "windsor-v0.9"
 (Windsor v0.9's: expr-lang as Windsor runs it, `true && missing` is
 nil) or "bluelink" —: a host string
 with `${…}` parts when `template_mode` is non-zero, else a bare
 expression. Returns the program, or NULL with `*err` set.

 A source longer than 32 MiB (`BPVM_MAX_SOURCE_KIB` sets another limit,
 in KiB) is an error, found before anything in proportion to its length
 is allocated.

 # Safety
 `dialect` and `source` must be NULL or NUL-terminated strings; `err`
 must be NULL or valid for writing one pointer.
 */
bpvm_program *bpvm_compile(const char *dialect, const char *source, int template_mode, char **err);

/*
 Frees a program from [`bpvm_compile`]; NULL is ignored.

 # Safety
 `p` must be NULL or a program from [`bpvm_compile`] not freed before,
 and no other thread may be using it.
 */
void bpvm_program_free(bpvm_program *p);

/*
 Renders `context` of the Windsor project in `project_dir` (NULL
 `context`: the project's current context, as `bpvm render` without
 `--context` chooses it — `.windsor/context`, else `WINDSOR_CONTEXT`,
 else windsor.yaml's `context:`, else `local`) and sets `*out` to
 the blueprint, exactly as `bpvm render --project DIR --context NAME`
 prints it. `options_json` may be NULL. Returns 0, or non-zero with
 `*err` set.

 Jsonnet (`jsonnet()` in a facet): a host process cannot be restarted
 as `bpvm`, so set the environment variable `BPVM_JSONNET_WORKER` to
 the path of a `bpvm` executable (before the first render) and Jsonnet
 runs in worker processes of it, under the same memory limit
 (`BPVM_JSONNET_MEMORY_MIB`) and time limit (`BPVM_TIMEOUT_SECONDS`) as
 `bpvm render`. Without it Jsonnet runs in the host's process, limited
 only in recursion depth and result size: a Jsonnet file can then take
 all the host's memory or run without end.

 # Safety
 The strings must be NULL or NUL-terminated; `out` and `err` must be
 NULL or valid for writing one pointer.
 */
int bpvm_render_windsor(const char *project_dir,
                        const char *context,
                        const char *options_json,
                        char **out,
                        char **err);

/*
 Validates and materialises the Bluelink blueprint at `blueprint_path`
 and sets `*out` to it, exactly as `bpvm render BLUEPRINT` prints it.
 `options_json` may be NULL. Returns 0, or non-zero with `*err` set.

 # Safety
 The strings must be NULL or NUL-terminated; `out` and `err` must be
 NULL or valid for writing one pointer.
 */
int bpvm_render_bluelink(const char *blueprint_path,
                         const char *options_json,
                         char **out,
                         char **err);

#ifdef __cplusplus
}  // extern "C"
#endif  // __cplusplus

#endif  /* BPVM_H */

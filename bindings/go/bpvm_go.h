/*
 * bpvm_go.h: the C ABI of bpvm in the shape cgo calls best.
 *
 * Each wrapper returns its outputs in a struct, by value, so that no Go
 * pointer is handed to C: taking the address of a Go variable for an out
 * parameter makes it escape to the heap, one allocation per call.
 *
 * The evaluations take their handles as uintptr_t. cgo checks every pointer
 * argument with a call taking interface{}, and a pointer to an opaque C
 * struct (not a pointer Go may hold in an interface directly) is boxed for
 * it: an allocation per handle per call, where the evaluation itself
 * allocates nothing. The handles are C memory, so there is nothing to check.
 */

#ifndef BPVM_GO_H
#define BPVM_GO_H

#include <stdint.h>

#include "bpvm.h"

typedef struct {
	void *handle;
	char *err;
} bpvm_go_handle;

static inline bpvm_go_handle bpvm_go_compile(const char *dialect, const char *source, int template_mode) {
	bpvm_go_handle r = {0};
	r.handle = bpvm_compile(dialect, source, template_mode, &r.err);
	return r;
}

static inline bpvm_go_handle bpvm_go_env_from_json(const char *json) {
	bpvm_go_handle r = {0};
	r.handle = bpvm_env_from_json(json, &r.err);
	return r;
}

static inline bpvm_go_handle bpvm_go_env_from_yaml(const char *yaml) {
	bpvm_go_handle r = {0};
	r.handle = bpvm_env_from_yaml(yaml, &r.err);
	return r;
}

typedef struct {
	int rc;
	int value;
	char *err;
} bpvm_go_bool;

static inline bpvm_go_bool bpvm_go_eval_bool(uintptr_t p, uintptr_t e) {
	bpvm_go_bool r = {0};
	r.rc = bpvm_eval_bool((const bpvm_program *)p, (const bpvm_env *)e, &r.value, &r.err);
	return r;
}

typedef struct {
	int rc;
	char *out;
	char *err;
} bpvm_go_text;

static inline bpvm_go_text bpvm_go_eval_json(uintptr_t p, uintptr_t e) {
	bpvm_go_text r = {0};
	r.rc = bpvm_eval_json((const bpvm_program *)p, (const bpvm_env *)e, &r.out, &r.err);
	return r;
}

static inline bpvm_go_text bpvm_go_render_windsor(const char *project_dir, const char *context, const char *options_json) {
	bpvm_go_text r = {0};
	r.rc = bpvm_render_windsor(project_dir, context, options_json, &r.out, &r.err);
	return r;
}

static inline bpvm_go_text bpvm_go_render_bluelink(const char *blueprint_path, const char *options_json) {
	bpvm_go_text r = {0};
	r.rc = bpvm_render_bluelink(blueprint_path, options_json, &r.out, &r.err);
	return r;
}
#endif /* BPVM_GO_H */

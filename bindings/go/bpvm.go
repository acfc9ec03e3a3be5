package bpvm

/*
#cgo CFLAGS: -I${SRCDIR}/../../capi/include
// -l:libbpvm_capi.a, not -lbpvm_capi: the target folder holds the .so too,
// and the linker would prefer it, leaving binaries that need it at run time.
// The -L of the default target folder comes after any in CGO_LDFLAGS, so a
// CARGO_TARGET_DIR given there wins. The system libraries are those bpvm.h
// names for Linux, the only link line it gives.
#cgo linux LDFLAGS: -L${SRCDIR}/../../target/release -l:libbpvm_capi.a -lgcc_s -lutil -lrt -lpthread -lm -ldl -lc
#include <stdlib.h>
#include <string.h>
#include "bpvm_go.h"
*/
import "C"

import (
	"encoding/json"
	"errors"
	"fmt"
	"runtime"
	"strings"
	"unsafe"
)

// The dialects [Compile] and [CompileTemplate] accept.
const (
	// Windsor is the expr-lang dialect of Windsor blueprints (`when:`,
	// `${…}` in facets), by the seed facet format's rules: nil counts as
	// false in `&&`, `||`, `!` and `?:`, which always give a bool.
	Windsor = "windsor"
	// WindsorV09 is the same dialect by Windsor v0.9's rules (expr-lang
	// as Windsor runs it): `true && missing` is nil.
	WindsorV09 = "windsor-v0.9"
	// Bluelink is the substitution language of Bluelink blueprints.
	Bluelink = "bluelink"
)

// Error is an error reported by the bpvm library. Its message is exactly
// what the `bpvm` CLI prints on stderr for the same failure: a compile error
// has its line:column and a caret under the spot.
type Error struct {
	// Message is the library's message, which may span several lines.
	Message string
}

// Error returns the library's message.
func (e *Error) Error() string { return e.Message }

// ErrClosed is returned when a [Program] or [Env] is used after Close.
var ErrClosed = errors.New("bpvm: use of a closed handle")

// Version returns the version of the linked library, e.g. "0.1.0".
func Version() string {
	return C.GoString(C.bpvm_version())
}

// takeError turns a message the library handed out into an *Error and
// frees the C string.
func takeError(msg *C.char) error {
	if msg == nil {
		// Not expected: every failure sets a message. Say so rather than
		// report success.
		return &Error{Message: "error: the library failed without a message"}
	}
	defer C.bpvm_string_free(msg)
	return &Error{Message: C.GoString(msg)}
}

// takeBytes copies a string the library handed out and frees it.
func takeBytes(s *C.char) []byte {
	defer C.bpvm_string_free(s)
	return C.GoBytes(unsafe.Pointer(s), C.int(C.strlen(s)))
}

// cString copies s into C memory (freed with C.free). A NUL byte inside s
// is an error: C would see the text end there, silently.
func cString(what, s string) (*C.char, error) {
	if strings.IndexByte(s, 0) >= 0 {
		return nil, fmt.Errorf("bpvm: %s contains a NUL byte", what)
	}
	return C.CString(s), nil
}

// Program is a compiled expression or host string. It is immutable: one
// Program may be evaluated by many goroutines at once. Close frees it.
type Program struct {
	p *C.bpvm_program
}

// Compile compiles the bare expression source in dialect ([Windsor], [WindsorV09] or
// [Bluelink]). A syntax error is an [*Error] with its line:column.
func Compile(dialect, source string) (*Program, error) {
	return compile(dialect, source, false)
}

// CompileTemplate compiles source in dialect as a host string: literal text
// with `${…}` parts, as in a blueprint's field values. It evaluates to a
// string, or to the value itself when source is one `${…}` and nothing else.
func CompileTemplate(dialect, source string) (*Program, error) {
	return compile(dialect, source, true)
}

func compile(dialect, source string, template bool) (*Program, error) {
	cDialect, err := cString("dialect", dialect)
	if err != nil {
		return nil, err
	}
	defer C.free(unsafe.Pointer(cDialect))
	cSource, err := cString("source", source)
	if err != nil {
		return nil, err
	}
	defer C.free(unsafe.Pointer(cSource))
	mode := C.int(0)
	if template {
		mode = 1
	}
	r := C.bpvm_go_compile(cDialect, cSource, mode)
	if r.handle == nil {
		return nil, takeError(r.err)
	}
	p := &Program{p: (*C.bpvm_program)(r.handle)}
	runtime.SetFinalizer(p, (*Program).Close)
	return p, nil
}

// Close frees the program. Calling it again does nothing; using the program
// afterwards gives [ErrClosed]. No other goroutine may be evaluating it.
// It always returns nil.
func (p *Program) Close() error {
	if p.p != nil {
		C.bpvm_program_free(p.p)
		p.p = nil
		runtime.SetFinalizer(p, nil)
	}
	return nil
}

// handles returns the C handles of p and e as the evaluation wrappers of
// bpvm_go.h take them (see there why as integers), or ErrClosed.
func handles(p *Program, e *Env) (C.uintptr_t, C.uintptr_t, error) {
	if p == nil || p.p == nil || e == nil || e.e == nil {
		return 0, 0, ErrClosed
	}
	return C.uintptr_t(uintptr(unsafe.Pointer(p.p))), C.uintptr_t(uintptr(unsafe.Pointer(e.e))), nil
}

// EvalJSON evaluates the program against env and returns the result as one
// line of JSON, exactly as `bpvm eval` prints it: nil is null, bytes their
// UTF-8 text. Bluelink's effect functions work as under `bpvm eval`:
// file() reads inside the process's current folder, link() reads env's
// `links`.
func (p *Program) EvalJSON(env *Env) ([]byte, error) {
	cp, ce, err := handles(p, env)
	if err != nil {
		return nil, err
	}
	r := C.bpvm_go_eval_json(cp, ce)
	// The handles must outlive the call: without these, the finalizers
	// could free them while C is still reading.
	runtime.KeepAlive(p)
	runtime.KeepAlive(env)
	if r.rc != 0 {
		return nil, takeError(r.err)
	}
	return takeBytes(r.out), nil
}

// Eval evaluates the program against env and returns the result decoded by
// encoding/json: nil, bool, float64, string, []any or map[string]any.
// Integers beyond 2^53 lose precision as float64; use [Program.EvalJSON] and
// a json.Decoder with UseNumber to keep them.
//
// For a condition, [Program.EvalBool] is much cheaper: it sets up no host for
// Bluelink's effect functions and goes through no JSON.
func (p *Program) Eval(env *Env) (any, error) {
	text, err := p.EvalJSON(env)
	if err != nil {
		return nil, err
	}
	var v any
	if err := json.Unmarshal(text, &v); err != nil {
		return nil, fmt.Errorf("bpvm: decoding the result: %w", err)
	}
	return v, nil
}

// EvalBool evaluates the program as a condition, as Windsor decides a
// facet's or component's `when:`: a bool is itself, nil is false, and any
// other value is the error "a condition must give a bool, got TYPE". It is
// the fast path: nothing is allocated on success. Bluelink's file(), link()
// and http_resource() have no host here (file() fails, link() sees no
// links); use [Program.Eval] for those.
func (p *Program) EvalBool(env *Env) (bool, error) {
	cp, ce, err := handles(p, env)
	if err != nil {
		return false, err
	}
	r := C.bpvm_go_eval_bool(cp, ce)
	runtime.KeepAlive(p)
	runtime.KeepAlive(env)
	if r.rc != 0 {
		return false, takeError(r.err)
	}
	return r.value != 0, nil
}

// Env is an environment: the mapping expressions read. It is immutable: one
// Env may be read by many goroutines at once. Close frees it.
type Env struct {
	e *C.bpvm_env
}

// NewEnv makes an environment from vars, marshalled with encoding/json (so
// struct values, json.Marshaler and `json:` tags work as they do there). A
// nil map is an empty environment.
//
// An environment reads the paths of programs compiled before it was made
// from slots filled once, and those of later programs by name (the same
// results, a lookup per read): compile first, then make environments.
func NewEnv(vars map[string]any) (*Env, error) {
	if vars == nil {
		return EnvFromJSON(nil)
	}
	text, err := json.Marshal(vars)
	if err != nil {
		return nil, fmt.Errorf("bpvm: encoding the environment: %w", err)
	}
	return EnvFromJSON(text)
}

// EnvFromJSON makes an environment from a JSON object; empty text is an
// empty environment. Text that is not JSON, or not an object, is an [*Error].
func EnvFromJSON(text []byte) (*Env, error) {
	if len(text) == 0 {
		// The library reads "" as a JSON syntax error, not as nothing.
		text = []byte("{}")
	}
	return newEnv("JSON", text, false)
}

// EnvFromYAML makes an environment from a YAML mapping. Text that is not
// YAML, or not a mapping, is an [*Error].
func EnvFromYAML(text []byte) (*Env, error) {
	return newEnv("YAML", text, true)
}

func newEnv(what string, text []byte, yaml bool) (*Env, error) {
	cText, err := cString(what, string(text))
	if err != nil {
		return nil, err
	}
	defer C.free(unsafe.Pointer(cText))
	var r C.bpvm_go_handle
	if yaml {
		r = C.bpvm_go_env_from_yaml(cText)
	} else {
		r = C.bpvm_go_env_from_json(cText)
	}
	if r.handle == nil {
		return nil, takeError(r.err)
	}
	e := &Env{e: (*C.bpvm_env)(r.handle)}
	runtime.SetFinalizer(e, (*Env).Close)
	return e, nil
}

// Close frees the environment. Calling it again does nothing; using the
// environment afterwards gives [ErrClosed]. No other goroutine may be
// reading it. It always returns nil.
func (e *Env) Close() error {
	if e.e != nil {
		C.bpvm_env_free(e.e)
		e.e = nil
		runtime.SetFinalizer(e, nil)
	}
	return nil
}

package bpvm

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"runtime"
	"strings"
	"sync"
	"testing"
)

// repo is the root of the repository, two folders up from this package.
var repo = filepath.Join("..", "..")

func mustEnvYAML(t testing.TB, text string) *Env {
	t.Helper()
	env, err := EnvFromYAML([]byte(text))
	if err != nil {
		t.Fatalf("EnvFromYAML(%q): %v", text, err)
	}
	t.Cleanup(func() { env.Close() })
	return env
}

func mustCompile(t testing.TB, dialect, source string) *Program {
	t.Helper()
	p, err := Compile(dialect, source)
	if err != nil {
		t.Fatalf("Compile(%q, %q): %v", dialect, source, err)
	}
	t.Cleanup(func() { p.Close() })
	return p
}

// libraryError returns err's message, failing unless err is an *Error.
func libraryError(t *testing.T, err error) string {
	t.Helper()
	var e *Error
	if !errors.As(err, &e) {
		t.Fatalf("want a *bpvm.Error, got %T: %v", err, err)
	}
	if e.Error() != e.Message {
		t.Fatalf("Error() = %q, Message = %q", e.Error(), e.Message)
	}
	return e.Message
}

func TestVersionIsTheWorkspaces(t *testing.T) {
	manifest, err := os.ReadFile(filepath.Join(repo, "Cargo.toml"))
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`(?m)^version = "([^"]+)"`).FindSubmatch(manifest)
	if m == nil {
		t.Fatal("no version in Cargo.toml")
	}
	if got := Version(); got != string(m[1]) {
		t.Fatalf("Version() = %q, Cargo.toml says %q", got, m[1])
	}
}

func TestEval(t *testing.T) {
	env, err := NewEnv(map[string]any{
		"n":       3,
		"name":    "prod",
		"cluster": map[string]any{"enabled": true, "nodes": []int{1, 2}},
	})
	if err != nil {
		t.Fatal(err)
	}
	defer env.Close()
	for _, c := range []struct {
		dialect, source string
		want            any
	}{
		{Windsor, "n * n + 1", float64(10)},
		{Windsor, "name + '-' + 'x'", "prod-x"},
		{Windsor, "cluster.enabled", true},
		{Windsor, "cluster.nodes", []any{float64(1), float64(2)}},
		{Windsor, "{'a': n}", map[string]any{"a": float64(3)}},
		{Windsor, "missing", nil},
		{Bluelink, `len(split("a,b", ","))`, float64(2)},
	} {
		p := mustCompile(t, c.dialect, c.source)
		got, err := p.Eval(env)
		if err != nil {
			t.Errorf("%s %q: %v", c.dialect, c.source, err)
			continue
		}
		if !reflect.DeepEqual(got, c.want) {
			t.Errorf("%s %q = %#v, want %#v", c.dialect, c.source, got, c.want)
		}
	}
}

func TestEvalJSONIsTheCLIsLine(t *testing.T) {
	env := mustEnvYAML(t, "n: 3\n")
	got, err := mustCompile(t, Windsor, "[n, nil, 'x']").EvalJSON(env)
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != `[3,null,"x"]` {
		t.Fatalf("EvalJSON = %s", got)
	}
}

func TestEvalError(t *testing.T) {
	env := mustEnvYAML(t, "n: 3\n")
	_, err := mustCompile(t, Windsor, "n + 'a'").Eval(env)
	if msg := libraryError(t, err); !strings.Contains(msg, "1:1: '+' cannot be applied to int and string") {
		t.Fatalf("message %q", msg)
	}
}

func TestCompileTemplate(t *testing.T) {
	env := mustEnvYAML(t, "name: prod\nn: 2\nvariables: {name: prod}\n")
	for _, c := range []struct {
		dialect, source string
		want            any
	}{
		{Windsor, "cluster-${name}", "cluster-prod"},
		{Windsor, "${n}", float64(2)},
		{Bluelink, "db-${variables.name}", "db-prod"},
	} {
		p, err := CompileTemplate(c.dialect, c.source)
		if err != nil {
			t.Errorf("%s %q: %v", c.dialect, c.source, err)
			continue
		}
		got, err := p.Eval(env)
		p.Close()
		if err != nil {
			t.Errorf("%s %q: %v", c.dialect, c.source, err)
			continue
		}
		if !reflect.DeepEqual(got, c.want) {
			t.Errorf("%s %q = %#v, want %#v", c.dialect, c.source, got, c.want)
		}
	}
}

func TestCompileErrors(t *testing.T) {
	_, err := Compile("cobol", "1")
	if msg := libraryError(t, err); !strings.Contains(msg, `unknown dialect "cobol"`) {
		t.Errorf("bad dialect: %q", msg)
	}

	_, err = Compile(Windsor, "provider ==\n  && x")
	msg := libraryError(t, err)
	if !regexp.MustCompile(`\b2:\d+\b`).MatchString(msg) || !strings.Contains(msg, "^") {
		t.Errorf("syntax error without line:column and caret: %q", msg)
	}

	_, err = CompileTemplate(Windsor, "a ${b")
	if msg := libraryError(t, err); !strings.Contains(msg, "1:3: unclosed '${'") {
		t.Errorf("unclosed template part: %q", msg)
	}

	if _, err = Compile(Windsor, "a\x00b"); err == nil || !strings.Contains(err.Error(), "NUL") {
		t.Errorf("NUL in the source: %v", err)
	}
}

func TestEvalBool(t *testing.T) {
	env := mustEnvYAML(t, "provider: aws\ncluster: {enabled: true}\nn: 1\n")
	for source, want := range map[string]bool{
		"provider == 'aws' && cluster.enabled": true,
		"provider == 'gcp'":                    false,
		"missing":                              false, // nil is false, as for `when:`
	} {
		got, err := mustCompile(t, Windsor, source).EvalBool(env)
		if err != nil || got != want {
			t.Errorf("%q = %v, %v; want %v", source, got, err, want)
		}
	}
	_, err := mustCompile(t, Windsor, "n").EvalBool(env)
	if msg := libraryError(t, err); !strings.Contains(msg, "a condition must give a bool, got") {
		t.Errorf("non-bool condition: %q", msg)
	}
}

func TestWindsorRules(t *testing.T) {
	env := mustEnvYAML(t, "{}")
	for dialect, want := range map[string]string{Windsor: "false", WindsorV09: "null"} {
		raw, err := mustCompile(t, dialect, "true && missing").EvalJSON(env)
		if got := string(raw); err != nil || got != want {
			t.Errorf("%s: true && missing = %q, %v; want %q", dialect, raw, err, want)
		}
	}
}

func TestEnvErrors(t *testing.T) {
	for _, c := range []struct {
		name string
		make func() (*Env, error)
		want string
	}{
		{"bad YAML", func() (*Env, error) { return EnvFromYAML([]byte("a: [1,\n")) }, "1:4: unclosed bracket"},
		{"YAML list", func() (*Env, error) { return EnvFromYAML([]byte("- a\n- b\n")) }, "an environment must be a mapping, got list"},
		{"bad JSON", func() (*Env, error) { return EnvFromJSON([]byte(`{"a": `)) }, "1:6: EOF while parsing a value"},
		{"JSON number", func() (*Env, error) { return EnvFromJSON([]byte(`42`)) }, "an environment must be a mapping, got int"},
	} {
		env, err := c.make()
		if err == nil {
			env.Close()
			t.Errorf("%s: no error", c.name)
		} else if msg := libraryError(t, err); !strings.Contains(msg, c.want) {
			t.Errorf("%s: %q, want %q in it", c.name, msg, c.want)
		}
	}

	if _, err := EnvFromYAML([]byte("a: \x00")); err == nil || !strings.Contains(err.Error(), "NUL") {
		t.Errorf("NUL in the YAML: %v", err)
	}
	if _, err := NewEnv(map[string]any{"ch": make(chan int)}); err == nil {
		t.Error("NewEnv of a channel: no error")
	}
}

func TestEmptyEnvs(t *testing.T) {
	p := mustCompile(t, Windsor, "x ?? 'none'")
	for name, make := range map[string]func() (*Env, error){
		"NewEnv(nil)":       func() (*Env, error) { return NewEnv(nil) },
		"NewEnv({})":        func() (*Env, error) { return NewEnv(map[string]any{}) },
		"EnvFromJSON(\"\")": func() (*Env, error) { return EnvFromJSON(nil) },
		"EnvFromYAML({})":   func() (*Env, error) { return EnvFromYAML([]byte("{}")) },
	} {
		env, err := make()
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		got, err := p.Eval(env)
		env.Close()
		if err != nil || got != "none" {
			t.Errorf("%s: %v, %v", name, got, err)
		}
	}
}

func TestClosedHandles(t *testing.T) {
	env := mustEnvYAML(t, "a: true\n")
	p := mustCompile(t, Windsor, "a")
	if err := p.Close(); err != nil {
		t.Fatal(err)
	}
	p.Close() // twice is harmless
	if _, err := p.EvalBool(env); err != ErrClosed {
		t.Errorf("EvalBool on a closed program: %v", err)
	}
	if _, err := p.Eval(env); err != ErrClosed {
		t.Errorf("Eval on a closed program: %v", err)
	}

	q := mustCompile(t, Windsor, "a")
	env.Close()
	env.Close()
	if _, err := q.EvalBool(env); err != ErrClosed {
		t.Errorf("EvalBool on a closed env: %v", err)
	}
	if _, err := q.EvalBool(nil); err != ErrClosed {
		t.Errorf("EvalBool on a nil env: %v", err)
	}
}

// Handles dropped without Close are freed by their finalizers; this only
// shows nothing breaks when they run (run it under -race, or valgrind's
// view of the library, to see more).
func TestFinalizersFreeDroppedHandles(t *testing.T) {
	for i := 0; i < 1000; i++ {
		env, err := EnvFromYAML([]byte("a: true\n"))
		if err != nil {
			t.Fatal(err)
		}
		p, err := Compile(Windsor, "a")
		if err != nil {
			t.Fatal(err)
		}
		if ok, err := p.EvalBool(env); !ok || err != nil {
			t.Fatal(ok, err)
		}
	}
	runtime.GC()
	runtime.GC()
}

// Eight goroutines evaluating the same Programs against the same Envs get
// what one goroutine gets: the anchors of benches/anchors.yaml, a
// condition, and an expression building a list.
func TestOneProgramAndEnvServeManyGoroutines(t *testing.T) {
	type job struct {
		name string
		p    *Program
		env  *Env
	}
	env := mustEnvYAML(t, "n: 3\nprovider: aws\nnames: [a, b, c]\n")
	jobs := []job{
		{"map", mustCompile(t, Windsor, "map(names, # + provider + string(n * n))"), env},
		{"condition", mustCompile(t, Windsor, "provider == 'aws' && n > 2"), env},
	}
	for _, a := range loadAnchors(t) {
		jobs = append(jobs, job{"anchor " + a.id, a.prog, a.env}, job{"anchor " + a.id + " as a condition", a.cond, a.env})
	}

	// run evaluates every job once, as a value and, where it is one, as a
	// condition.
	run := func() []string {
		out := make([]string, len(jobs))
		for i, j := range jobs {
			v, err := j.p.Eval(j.env)
			b, berr := j.p.EvalBool(j.env)
			out[i] = fmt.Sprintf("%s: %#v %v | %v %v", j.name, v, err, b, berr)
		}
		return out
	}
	want := run()

	const goroutines, rounds = 8, 100
	var wg sync.WaitGroup
	failures := make(chan string, goroutines)
	for g := 0; g < goroutines; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			// Each goroutine on an OS thread of its own: 8 threads, each
			// with its own VM in the library, share the program and env.
			runtime.LockOSThread()
			defer runtime.UnlockOSThread()
			for i := 0; i < rounds; i++ {
				if got := run(); !reflect.DeepEqual(got, want) {
					failures <- fmt.Sprintf("got %q\nwant %q", got, want)
					return
				}
			}
		}()
	}
	wg.Wait()
	close(failures)
	for f := range failures {
		t.Error(f)
	}
}

func TestRenderWindsor(t *testing.T) {
	project := filepath.Join(repo, "examples", "windsor")
	yaml, err := RenderWindsor(project, "", nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(yaml) == 0 || yaml[0] == '{' {
		t.Fatalf("default output is not YAML: %.80s", yaml)
	}
	local, err := RenderWindsor(project, "local", &WindsorOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if string(local) != string(yaml) {
		t.Error("context \"local\" renders differently from windsor.yaml's own context")
	}
	json, err := RenderWindsor(project, "", &WindsorOptions{Output: "json", Rules: "seed", NoSchemaDefaults: true})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(string(json), "{") {
		t.Fatalf("json output: %.80s", json)
	}
}

func TestRenderWindsorErrors(t *testing.T) {
	project := filepath.Join(repo, "examples", "windsor")
	for _, c := range []struct {
		name, dir, context string
		opts               *WindsorOptions
		want               string
	}{
		{"missing project", "/nonexistent/bpvm", "", nil, "/nonexistent/bpvm is not a folder"},
		{"unknown context", project, "nope", nil, `no context "nope": the project has: local`},
		{"bad rules", project, "", &WindsorOptions{Rules: "v9"}, `"rules" must be one of "auto", "seed", "v0.9", got "v9"`},
		{"unknown option key", project, "", &WindsorOptions{Extra: map[string]any{"compile_flx": true}}, `did you mean "compile_flux"`},
	} {
		out, err := RenderWindsor(c.dir, c.context, c.opts)
		if err == nil {
			t.Errorf("%s: no error, %d bytes", c.name, len(out))
		} else if msg := libraryError(t, err); !strings.Contains(msg, c.want) {
			t.Errorf("%s: %q, want %q in it", c.name, msg, c.want)
		}
	}
}

func TestRenderBluelink(t *testing.T) {
	examples := filepath.Join(repo, "examples", "bluelink")
	blueprint := filepath.Join(examples, "blueprint.yaml")
	seed := uint64(3)
	opts := &BluelinkOptions{
		Var:         []string{"environment=production", "databasePassword=hunter2"},
		ShowSecrets: true,
		Seed:        &seed,
		Now:         "2024-05-06T07:08:09Z",
		Root:        examples,
	}
	out, err := RenderBluelink(blueprint, opts)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(out), "orders-production") {
		t.Fatalf("render: %.200s", out)
	}
	again, err := RenderBluelink(blueprint, opts)
	if err != nil || string(again) != string(out) {
		t.Errorf("a seeded render at a pinned instant differs: %v", err)
	}

	opts.Output = "json"
	out, err = RenderBluelink(blueprint, opts)
	if err != nil || !strings.HasPrefix(string(out), "{") {
		t.Errorf("json output: %v, %.80s", err, out)
	}

	withFiles := &BluelinkOptions{
		Vars:        filepath.Join(examples, "blueprint.vars.yaml"),
		Datasources: filepath.Join(examples, "blueprint.datasources.yaml"),
	}
	if _, err := RenderBluelink(blueprint, withFiles); err != nil {
		t.Errorf("with --vars and --datasources: %v", err)
	}
}

func TestRenderBluelinkErrors(t *testing.T) {
	blueprint := filepath.Join(repo, "examples", "bluelink", "blueprint.yaml")
	for _, c := range []struct {
		name, path string
		opts       *BluelinkOptions
		want       string
	}{
		{"missing blueprint", "/nonexistent/blueprint.yaml", nil, "/nonexistent/blueprint.yaml: cannot read the blueprint"},
		{"var without a value", blueprint, &BluelinkOptions{Var: []string{"environment"}}, `--var "environment": expected NAME=VALUE`},
		{"bad instant", blueprint, &BluelinkOptions{Now: "yesterday"}, `--now "yesterday" is not an RFC 3339 time`},
		{"unknown option key", blueprint, &BluelinkOptions{Extra: map[string]any{"allow_htp": []string{"example.com"}}},
			`unknown key "allow_htp" (did you mean "allow_http"?)`},
	} {
		out, err := RenderBluelink(c.path, c.opts)
		if err == nil {
			t.Errorf("%s: no error, %d bytes", c.name, len(out))
		} else if msg := libraryError(t, err); !strings.Contains(msg, c.want) {
			t.Errorf("%s: %q, want %q in it", c.name, msg, c.want)
		}
	}
}

func TestOptionsJSON(t *testing.T) {
	seed := uint64(0)
	for _, c := range []struct {
		opts any
		want string
	}{
		{(*WindsorOptions)(nil), ""},
		{(*BluelinkOptions)(nil), ""},
		{&WindsorOptions{}, "{}"},
		{&WindsorOptions{Output: "json", NoSchemaDefaults: true}, `{"output":"json","no_schema_defaults":true}`},
		{&WindsorOptions{Rules: "seed", Extra: map[string]any{"rules": "v0.9", "x": nil}}, `{"rules":"v0.9","x":null}`},
		{&BluelinkOptions{Seed: &seed, Var: []string{"a=1"}}, `{"var":["a=1"],"seed":0}`},
		{&BluelinkOptions{AllowHTTP: []string{"h"}, ResourceState: "s.json"}, `{"resource_state":"s.json","allow_http":["h"]}`},
	} {
		var got string
		var err error
		switch o := c.opts.(type) {
		case *WindsorOptions:
			got, err = optionsFor(o, func(o *WindsorOptions) map[string]any { return o.Extra })
		case *BluelinkOptions:
			got, err = optionsFor(o, func(o *BluelinkOptions) map[string]any { return o.Extra })
		}
		if err != nil || got != c.want {
			t.Errorf("%+v: %s, %v; want %s", c.opts, got, err, c.want)
		}
	}
}

// EvalBool is the per-condition fast path: like bpvm_eval_bool, it must not
// allocate once the goroutine's thread has evaluated once.
func TestEvalBoolAllocatesNothing(t *testing.T) {
	env := mustEnvYAML(t, "provider: aws\ncluster: {enabled: true}\n")
	p := mustCompile(t, Windsor, "provider == 'aws' && (cluster.enabled ?? true)")
	allocs := testing.AllocsPerRun(1000, func() {
		if ok, err := p.EvalBool(env); !ok || err != nil {
			t.Fatal(ok, err)
		}
	})
	if allocs != 0 {
		t.Fatalf("EvalBool allocates %v times a call", allocs)
	}
}

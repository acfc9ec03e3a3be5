package bpvm

import (
	"encoding/json"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// anchor is one expression of benches/anchors.yaml, compiled, with the
// environment it is measured against.
type anchor struct {
	id     string
	source string
	env    *Env
	want   any
	// cond is the anchor as a condition: itself when it gives a bool, else
	// `(source) == want`, which is how a `when:` would use the value.
	cond *Program
	prog *Program
}

// loadAnchors reads the anchor expressions and their environments from the
// repository's benches/anchors.yaml, the file the Rust benchmarks measure.
// The library reads the YAML itself, so no Go YAML package is needed.
func loadAnchors(tb testing.TB) []anchor {
	tb.Helper()
	text, err := os.ReadFile(filepath.Join(repo, "benches", "anchors.yaml"))
	if err != nil {
		tb.Fatal(err)
	}
	file := mustEnvYAML(tb, string(text))
	var doc struct {
		Environments map[string]map[string]any
		Expressions  []struct {
			ID     string
			Env    string
			Expr   string
			Result any
		}
	}
	raw, err := mustCompile(tb, Windsor, "{'environments': environments, 'expressions': expressions}").EvalJSON(file)
	if err != nil {
		tb.Fatal(err)
	}
	if err := json.Unmarshal(raw, &doc); err != nil {
		tb.Fatal(err)
	}
	// Programs first, then environments: an environment reads by slot the
	// paths compiled before it was made (as a host compiles its template,
	// then makes each context), and later ones by name.
	var out []anchor
	for _, e := range doc.Expressions {
		a := anchor{id: e.ID, source: e.Expr, want: e.Result}
		a.prog = mustCompile(tb, Windsor, e.Expr)
		cond := e.Expr
		if _, isBool := e.Result.(bool); !isBool {
			literal, _ := json.Marshal(e.Result)
			cond = "(" + e.Expr + ") == " + string(literal)
		}
		a.cond = mustCompile(tb, Windsor, cond)
		out = append(out, a)
	}
	envs := map[string]*Env{}
	for name, vars := range doc.Environments {
		env, err := NewEnv(vars)
		if err != nil {
			tb.Fatal(err)
		}
		tb.Cleanup(func() { env.Close() })
		envs[name] = env
	}
	for i, e := range doc.Expressions {
		name := e.Env
		if name == "" {
			name = "blueprint"
		}
		if out[i].env = envs[name]; out[i].env == nil {
			tb.Fatalf("anchor %s: no environment %q", e.ID, name)
		}
	}
	if len(out) == 0 {
		tb.Fatal("no anchors")
	}
	return out
}

func TestAnchorsGiveTheirResults(t *testing.T) {
	for _, a := range loadAnchors(t) {
		got, err := a.prog.Eval(a.env)
		if err != nil || !reflect.DeepEqual(got, a.want) {
			t.Errorf("anchor %s: %#v, %v; want %#v", a.id, got, err, a.want)
		}
		ok, err := a.cond.EvalBool(a.env)
		if err != nil || !ok {
			t.Errorf("anchor %s as a condition: %v, %v", a.id, ok, err)
		}
	}
}

// BenchmarkEvalBool measures the anchors as conditions; e and f give a
// number and a string, so they are measured compared with their results.
func BenchmarkEvalBool(b *testing.B) {
	for _, a := range loadAnchors(b) {
		a := a
		b.Run(a.id, func(b *testing.B) {
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				if ok, err := a.cond.EvalBool(a.env); !ok || err != nil {
					b.Fatal(ok, err)
				}
			}
		})
	}
}

// BenchmarkEvalBoolTrue measures the condition `true`: the cost of a call
// through cgo and the library with next to no evaluation, the floor under
// BenchmarkEvalBool's figures.
func BenchmarkEvalBoolTrue(b *testing.B) {
	env := mustEnvYAML(b, "{}")
	p := mustCompile(b, Windsor, "true")
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		if ok, err := p.EvalBool(env); !ok || err != nil {
			b.Fatal(ok, err)
		}
	}
}

// BenchmarkEval measures the anchors as they are, through JSON and
// encoding/json: what a host pays for a value rather than a bool.
func BenchmarkEval(b *testing.B) {
	for _, a := range loadAnchors(b) {
		a := a
		b.Run(a.id, func(b *testing.B) {
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				if _, err := a.prog.Eval(a.env); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkEvalBoolParallel measures anchor g on one Program and Env from
// GOMAXPROCS goroutines at once.
func BenchmarkEvalBoolParallel(b *testing.B) {
	anchors := loadAnchors(b)
	g := anchors[len(anchors)-1]
	b.ReportAllocs()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			if ok, err := g.cond.EvalBool(g.env); !ok || err != nil {
				b.Error(ok, err)
				return
			}
		}
	})
}

// corpusProject is a project made of the released Windsor core template
// beside the repository (../shared/corpus/windsor-core-v0.7.0, as the Rust
// render benchmark uses it) and a context "bench" with the values of
// benches/windsor-bench-values.yaml (as the C ABI's benchmark has it). The
// corpus has no context of its own, and a project reads no file outside
// its folder (symlinks included), so the template is copied. Without the
// corpus the caller is skipped, unless BPVM_CORPUS=required (as CI sets)
// makes that a failure.
func corpusProject(tb testing.TB) string {
	tb.Helper()
	corpus := filepath.Join(repo, "..", "shared", "corpus", "windsor-core-v0.7.0")
	if _, err := os.Stat(filepath.Join(corpus, "windsor.yaml")); err != nil {
		if os.Getenv("BPVM_CORPUS") == "required" {
			tb.Fatalf("BPVM_CORPUS=required but %s is not there", corpus)
		}
		tb.Skipf("%s is not there", corpus)
	}
	dir := tb.TempDir()
	for _, p := range []string{"windsor.yaml", filepath.Join("contexts", "_template")} {
		if err := copyTree(filepath.Join(corpus, p), filepath.Join(dir, p)); err != nil {
			tb.Fatal(err)
		}
	}
	values := filepath.Join(dir, "contexts", "bench", "values.yaml")
	if err := copyTree(filepath.Join(repo, "benches", "windsor-bench-values.yaml"), values); err != nil {
		tb.Fatal(err)
	}
	return dir
}

// copyTree copies the file or folder from to the path to.
func copyTree(from, to string) error {
	return filepath.WalkDir(from, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(from, path)
		if err != nil {
			return err
		}
		target := filepath.Join(to, rel)
		if d.IsDir() {
			return os.MkdirAll(target, 0o755)
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		if err := os.MkdirAll(filepath.Dir(target), 0o755); err != nil {
			return err
		}
		return os.WriteFile(target, data, 0o644)
	})
}

// BenchmarkRenderWindsor measures whole renders. The C ABI has no handle
// for a loaded project, so each render reads and compiles the template
// again, as `bpvm render` does.
func BenchmarkRenderWindsor(b *testing.B) {
	b.Run("examples-windsor", func(b *testing.B) {
		benchmarkRender(b, filepath.Join(repo, "examples", "windsor"), "")
	})
	b.Run("windsor-core-v0.7.0", func(b *testing.B) {
		benchmarkRender(b, corpusProject(b), "bench")
	})
}

func benchmarkRender(b *testing.B, dir, context string) {
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		if _, err := RenderWindsor(dir, context, nil); err != nil {
			b.Fatal(err)
		}
	}
}

func TestRenderWindsorCorpus(t *testing.T) {
	dir := corpusProject(t)
	out, err := RenderWindsor(dir, "bench", nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"name: bench", "name: database"} {
		if !strings.Contains(string(out), want) {
			t.Errorf("the render has no %q", want)
		}
	}
	again, err := RenderWindsor(dir, "bench", nil)
	if err != nil || string(again) != string(out) {
		t.Errorf("a second render differs: %v", err)
	}
}

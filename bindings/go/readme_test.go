package bpvm

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// goBlocks gives the ```go blocks of the Markdown text.
func goBlocks(text string) []string {
	var blocks []string
	var open *strings.Builder
	for _, line := range strings.Split(text, "\n") {
		switch {
		case open == nil && strings.TrimRight(line, " ") == "```go":
			open = &strings.Builder{}
		case open != nil && strings.TrimRight(line, " ") == "```":
			blocks = append(blocks, open.String())
			open = nil
		case open != nil:
			open.WriteString(line + "\n")
		}
	}
	return blocks
}

// TestTheReadmesGoProgramRuns builds the Go program of the repository's
// README ("From Go") as a module of its own that uses this package from
// this folder, and runs it from the repository's root.
func TestTheReadmesGoProgramRuns(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a program: not with -short")
	}
	readme, err := os.ReadFile(filepath.Join(repo, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	blocks := goBlocks(string(readme))
	if len(blocks) != 1 {
		t.Fatalf("the README has %d Go programs, not one", len(blocks))
	}
	here, err := filepath.Abs(".")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	goMod := "module readme\n\ngo 1.19\n\nrequire github.com/bpvm/bpvm/bindings/go v0.0.0\n\n" +
		"replace github.com/bpvm/bpvm/bindings/go => " + here + "\n"
	for name, text := range map[string]string{"go.mod": goMod, "main.go": blocks[0]} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	exe := filepath.Join(dir, "readme")
	build := exec.Command("go", "build", "-o", exe, ".")
	build.Dir = dir
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("the README's program does not build: %v\n%s", err, out)
	}
	run := exec.Command(exe)
	run.Dir = repo
	out, err := run.CombinedOutput()
	if err != nil {
		t.Fatalf("the README's program failed: %v\n%s", err, out)
	}
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	if len(lines) != 2 || lines[0] != "included: true" || !strings.HasSuffix(lines[1], " bytes of blueprint") {
		t.Errorf("the README's program printed:\n%s", out)
	}
}

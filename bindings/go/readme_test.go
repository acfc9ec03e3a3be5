package bpvm

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// blocks gives the code blocks of the Markdown text fenced as ```lang.
func blocks(text, lang string) []string {
	var blocks []string
	var open *strings.Builder
	for _, line := range strings.Split(text, "\n") {
		switch {
		case open == nil && strings.TrimRight(line, " ") == "```"+lang:
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

// cloneAt is where this package's README has the user's go.mod find the
// bpvm clone.
const cloneAt = "=> ../bpvm/bindings/go\n"

// readmeGoMod gives the go.mod of this package's README, its replace
// pointed at this folder.
func readmeGoMod(t *testing.T, here string) string {
	readme, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	mods := blocks(string(readme), "go-mod")
	if len(mods) != 1 || !strings.Contains(mods[0], cloneAt) {
		t.Fatalf("bindings/go/README.md needs one go.mod replacing the module %s", cloneAt)
	}
	return strings.Replace(mods[0], cloneAt, "=> "+here+"\n", 1)
}

// TestTheReadmesGoProgramRuns builds the Go program of docs/library.md
// ("From Go") as a module of its own, with the go.mod this
// package's README gives users, and runs it from the repository's root.
func TestTheReadmesGoProgramRuns(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a program: not with -short")
	}
	readme, err := os.ReadFile(filepath.Join(repo, "docs", "library.md"))
	if err != nil {
		t.Fatal(err)
	}
	programs := blocks(string(readme), "go")
	if len(programs) != 1 {
		t.Fatalf("docs/library.md has %d Go programs, not one", len(programs))
	}
	here, err := filepath.Abs(".")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	goMod := readmeGoMod(t, here)
	for name, text := range map[string]string{"go.mod": goMod, "main.go": programs[0]} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	exe := filepath.Join(dir, "readme")
	build := exec.Command("go", "build", "-o", exe, ".")
	build.Dir = dir
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("docs/library.md's program does not build: %v\n%s", err, out)
	}
	run := exec.Command(exe)
	run.Dir = repo
	out, err := run.CombinedOutput()
	if err != nil {
		t.Fatalf("docs/library.md's program failed: %v\n%s", err, out)
	}
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	if len(lines) != 2 || lines[0] != "included: true" || !strings.HasSuffix(lines[1], " bytes of blueprint") {
		t.Errorf("the README's program printed:\n%s", out)
	}
}

// Package bpvm is the Go binding of bpvm: compile a Windsor or Bluelink
// expression once, evaluate it many times from any number of goroutines,
// and render whole Windsor projects and Bluelink blueprints exactly as
// `bpvm render` prints them.
//
// It calls the C ABI of the bpvm-capi crate through cgo and links its static
// library, libbpvm_capi.a. Build that first, then point the linker at it:
//
//	cargo build --release -p bpvm-capi
//	cd bindings/go && go test
//
// The package finds the library in the repository's target/release; when
// CARGO_TARGET_DIR puts it elsewhere, say where with
// CGO_LDFLAGS="-L$CARGO_TARGET_DIR/release". bindings/go/build.sh does all
// of it, then go vet and go test -race.
//
// A condition compiled once and evaluated against an environment:
//
//	env, err := bpvm.EnvFromYAML([]byte("provider: aws\ncluster: {enabled: true}\n"))
//	if err != nil {
//		return err
//	}
//	defer env.Close()
//	when, err := bpvm.Compile(bpvm.Windsor, "provider == 'aws' && cluster.enabled")
//	if err != nil {
//		return err // a *bpvm.Error, with line:column and a caret
//	}
//	defer when.Close()
//	included, err := when.EvalBool(env)
//
// # Handles
//
// A [Program] and an [Env] own memory of the C library. Close them when done;
// a finalizer frees one that is dropped unclosed, but only when the garbage
// collector gets to it, which it does not hurry to do for objects whose size
// it cannot see. Both are immutable: one Program and one Env may be used by
// many goroutines at once. Only Close must wait until the others are done.
//
// # Errors
//
// Errors from the library are [*Error] values whose message is exactly what
// the CLI prints on stderr. Using a closed handle gives [ErrClosed].
package bpvm

package bpvm_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"log"
	"strings"

	bpvm "github.com/bpvm/bpvm/bindings/go"
)

// A condition compiled once and evaluated against an environment, as
// Windsor decides a facet's `when:`.
func Example() {
	env, err := bpvm.EnvFromYAML([]byte("provider: aws\ncluster: {enabled: true}\n"))
	if err != nil {
		log.Fatal(err)
	}
	defer env.Close()

	when, err := bpvm.Compile(bpvm.Windsor, "provider == 'aws' && cluster.enabled")
	if err != nil {
		log.Fatal(err)
	}
	defer when.Close()

	included, err := when.EvalBool(env)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("included:", included)
	// Output: included: true
}

func ExampleProgram_Eval() {
	env, err := bpvm.NewEnv(map[string]any{
		"cluster": map[string]any{"name": "prod", "nodes": 3},
	})
	if err != nil {
		log.Fatal(err)
	}
	defer env.Close()

	p, err := bpvm.Compile(bpvm.Windsor, "{'name': cluster.name, 'workers': cluster.nodes - 1}")
	if err != nil {
		log.Fatal(err)
	}
	defer p.Close()

	v, err := p.Eval(env)
	if err != nil {
		log.Fatal(err)
	}
	m := v.(map[string]any)
	fmt.Println(m["name"], m["workers"])
	// Output: prod 2
}

func ExampleCompileTemplate() {
	env, err := bpvm.EnvFromJSON([]byte(`{"variables": {"environment": "staging"}}`))
	if err != nil {
		log.Fatal(err)
	}
	defer env.Close()

	name, err := bpvm.CompileTemplate(bpvm.Bluelink, "orders-${variables.environment}")
	if err != nil {
		log.Fatal(err)
	}
	defer name.Close()

	v, err := name.Eval(env)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(v)
	// Output: orders-staging
}

// A syntax error is a *bpvm.Error whose message is the CLI's: the spot's
// line:column and a caret under it.
func ExampleError() {
	_, err := bpvm.Compile(bpvm.Windsor, "provider == 'aws' &&")
	var e *bpvm.Error
	if errors.As(err, &e) {
		fmt.Println(strings.SplitN(e.Message, "\n", 2)[0])
	}
	// Output: error: 1:21: expected an expression, found the end of the expression
}

// A Windsor project's context rendered as JSON, and read back.
func ExampleRenderWindsor() {
	out, err := bpvm.RenderWindsor("../../examples/windsor", "local", &bpvm.WindsorOptions{Output: "json"})
	if err != nil {
		log.Fatal(err)
	}
	var blueprint struct {
		Metadata  struct{ Name string }
		Terraform []struct{ Path string }
	}
	if err := json.Unmarshal(out, &blueprint); err != nil {
		log.Fatal(err)
	}
	fmt.Println(blueprint.Metadata.Name)
	for _, t := range blueprint.Terraform {
		fmt.Println(t.Path)
	}
	// Output:
	// local
	// backend
	// network/aws-vpc
	// cluster/aws-eks
	// gitops/flux
}

// A Bluelink blueprint with its variables given as --var would give them.
func ExampleRenderBluelink() {
	out, err := bpvm.RenderBluelink("../../examples/bluelink/blueprint.yaml", &bpvm.BluelinkOptions{
		Var:    []string{"environment=production", "databasePassword=hunter2"},
		Output: "json",
	})
	if err != nil {
		log.Fatal(err)
	}
	var blueprint struct {
		Variables map[string]struct{ Value string }
		Values    map[string]struct{ Value any }
	}
	if err := json.Unmarshal(out, &blueprint); err != nil {
		log.Fatal(err)
	}
	fmt.Println(blueprint.Values["prefix"].Value)
	fmt.Println(blueprint.Variables["databasePassword"].Value) // a secret, masked without ShowSecrets
	// Output:
	// orders-production
	// ********
}

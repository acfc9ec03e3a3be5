package bpvm

// #include <stdlib.h>
// #include "bpvm_go.h"
import "C"

import (
	"encoding/json"
	"fmt"
	"unsafe"
)

// WindsorOptions are the flags of `bpvm render --project` that
// [RenderWindsor] accepts. The zero value is the CLI's defaults.
type WindsorOptions struct {
	// Output is "yaml" (the default) or "json" (-o/--output).
	Output string `json:"output,omitempty"`
	// NoSchemaDefaults does not apply the defaults of
	// contexts/_template/schema.yaml (--no-schema-defaults).
	NoSchemaDefaults bool `json:"no_schema_defaults,omitempty"`
	// Rules is which Windsor rules to render by: "auto" (the default, the
	// ones the template's facets are written for, read from their forms), "seed" or
	// "v0.9" (--rules).
	Rules string `json:"rules,omitempty"`
	// CompileFlux prints the flux systems compiled to the kustomizations
	// Windsor applies, under `kustomize:`, instead of the `flux:` systems
	// (--compile-flux; Windsor v0.9).
	CompileFlux bool `json:"compile_flux,omitempty"`
	// TerraformOutputs is a YAML or JSON file of terraform outputs by
	// component; without it terraform_output() stays as written
	// (--terraform-outputs).
	TerraformOutputs string `json:"terraform_outputs,omitempty"`
	// Extra holds further options_json keys (see bpvm.h), for flags newer
	// than this struct; a key here replaces the field of the same key.
	Extra map[string]any `json:"-"`
}

// BluelinkOptions are the flags of `bpvm render BLUEPRINT` that
// [RenderBluelink] accepts. The zero value is the CLI's defaults.
type BluelinkOptions struct {
	// Output is "yaml" (the default) or "json" (-o/--output).
	Output string `json:"output,omitempty"`
	// Var gives variables' values, each "NAME=VALUE", parsed to the
	// variable's declared type; a later one wins (--var, repeatable).
	Var []string `json:"var,omitempty"`
	// Vars is a YAML or JSON file mapping variable names to values
	// (--vars).
	Vars string `json:"vars,omitempty"`
	// Datasources is a file of data source data: data source name to its
	// exported fields, or type to candidate records; without it data
	// source fields are left as written (--datasources).
	Datasources string `json:"datasources,omitempty"`
	// ResourceState is a file of deploy-time resource fields: resource
	// name to fields read as if they were in its spec (--resource-state).
	ResourceState string `json:"resource_state,omitempty"`
	// ShowSecrets prints secret variables and values instead of ********
	// (--show-secrets).
	ShowSecrets bool `json:"show_secrets,omitempty"`
	// Seed pins uuid(): the same seed gives the same ids (--seed). A
	// pointer because 0 is a seed too; nil leaves uuid() unpinned.
	Seed *uint64 `json:"seed,omitempty"`
	// Now pins datetime() to an instant in RFC 3339, e.g.
	// "2024-05-06T07:08:09Z" (--now).
	Now string `json:"now,omitempty"`
	// Root is the folder file() and include paths must stay inside
	// (--root; by default the current folder when the blueprint is in it,
	// else the blueprint's folder).
	Root string `json:"root,omitempty"`
	// AllowHTTP names the hosts http_resource() may fetch from
	// (--allow-http, repeatable).
	AllowHTTP []string `json:"allow_http,omitempty"`
	// Extra holds further options_json keys (see bpvm.h), for flags newer
	// than this struct; a key here replaces the field of the same key.
	Extra map[string]any `json:"-"`
}

// RenderWindsor renders context of the Windsor project in projectDir and
// returns the blueprint exactly as `bpvm render --project DIR --context
// NAME` prints it. An empty context means the project's current context,
// as `bpvm render` without --context chooses it: .windsor/context, else
// WINDSOR_CONTEXT, else windsor.yaml's `context:`, else "local". opts may
// be nil. Relative paths are read from the process's
// current folder.
func RenderWindsor(projectDir, context string, opts *WindsorOptions) ([]byte, error) {
	cDir, err := cString("project folder", projectDir)
	if err != nil {
		return nil, err
	}
	defer C.free(unsafe.Pointer(cDir))
	var cContext *C.char // NULL: the project's own default
	if context != "" {
		if cContext, err = cString("context", context); err != nil {
			return nil, err
		}
		defer C.free(unsafe.Pointer(cContext))
	}
	cOptions, err := optionsText(opts, func(o *WindsorOptions) map[string]any { return o.Extra })
	if err != nil {
		return nil, err
	}
	defer C.free(unsafe.Pointer(cOptions))
	return takeText(C.bpvm_go_render_windsor(cDir, cContext, cOptions))
}

// RenderBluelink validates and materialises the Bluelink blueprint at path
// and returns it exactly as `bpvm render BLUEPRINT` prints it. opts may be
// nil. Relative paths are read from the process's current folder.
func RenderBluelink(path string, opts *BluelinkOptions) ([]byte, error) {
	cPath, err := cString("blueprint path", path)
	if err != nil {
		return nil, err
	}
	defer C.free(unsafe.Pointer(cPath))
	cOptions, err := optionsText(opts, func(o *BluelinkOptions) map[string]any { return o.Extra })
	if err != nil {
		return nil, err
	}
	defer C.free(unsafe.Pointer(cOptions))
	return takeText(C.bpvm_go_render_bluelink(cPath, cOptions))
}

// optionsText is [optionsFor] as a C string, freed by the caller.
func optionsText[T any](opts *T, extra func(*T) map[string]any) (*C.char, error) {
	text, err := optionsFor(opts, extra)
	if err != nil {
		return nil, err
	}
	return cString("options", text)
}

// optionsFor is the options_json of opts ("" for nil); extra gives the
// keys laid over opts' fields.
func optionsFor[T any](opts *T, extra func(*T) map[string]any) (string, error) {
	if opts == nil {
		return "", nil
	}
	return optionsJSON(opts, extra(opts))
}

// optionsJSON is the options_json object of fields (a struct with json
// tags) with the keys of extra laid over it.
func optionsJSON(fields any, extra map[string]any) (string, error) {
	text, err := json.Marshal(fields)
	if err != nil {
		return "", fmt.Errorf("bpvm: encoding the options: %w", err)
	}
	if len(extra) == 0 {
		return string(text), nil
	}
	merged := map[string]any{}
	if err := json.Unmarshal(text, &merged); err != nil {
		return "", fmt.Errorf("bpvm: encoding the options: %w", err)
	}
	for k, v := range extra {
		merged[k] = v
	}
	if text, err = json.Marshal(merged); err != nil {
		return "", fmt.Errorf("bpvm: encoding the options: %w", err)
	}
	return string(text), nil
}

// takeText is the result of a render: the text, or the error, with the C
// string freed either way.
func takeText(r C.bpvm_go_text) ([]byte, error) {
	if r.rc != 0 {
		return nil, takeError(r.err)
	}
	return takeBytes(r.out), nil
}

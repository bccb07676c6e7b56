// Command languages runs the stack of test/languages/stack.json as a Go program on the
// generated SDK, as an Automation API inline program (no Go language host).
//
//	languages ACTION
//
// ACTION is up, preview, refresh, refresh-drift, import or destroy; refresh fails on any
// drift (--expect-no-changes), refresh-drift reports it; import is an up that takes over
// the records of the values' imports with the import resource option. The environment names
// the stack (LANGUAGES_DIR: its work directory, with Pulumi.yaml and the stack's config;
// LANGUAGES_PROJECT, LANGUAGES_STACK: its names), its program (LANGUAGES_PROGRAM: stack, the
// default, for ../stack.json, or organization for ../organization.json) and the program's
// values for this step (LANGUAGES_VALUES: a JSON file), beside the engine's own (PATH with pulumi first,
// PULUMI_HOME, PULUMI_BACKEND_URL, PULUMI_CONFIG_PASSPHRASE). It prints one JSON object,
// the result (changes by operation, the planned steps of a preview, the stack's outputs),
// and exits 1 with {"error": ...} when the operation fails.
package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"

	"github.com/pulumi/pulumi/sdk/v3/go/auto"
	"github.com/pulumi/pulumi/sdk/v3/go/auto/events"
	"github.com/pulumi/pulumi/sdk/v3/go/auto/optpreview"
	"github.com/pulumi/pulumi/sdk/v3/go/auto/optrefresh"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
)

type step struct {
	Op  string `json:"op"`
	URN string `json:"urn"`
}

type result struct {
	Changes map[string]int `json:"changes"`
	Steps   []step         `json:"steps,omitempty"`
	Outputs map[string]any `json:"outputs,omitempty"`
	// What the engine and the providers said during a preview (a replacement's reason).
	Diagnostics []string `json:"diagnostics,omitempty"`
	Error       string   `json:"error,omitempty"`
}

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: languages up|preview|refresh|refresh-drift|import|destroy")
		os.Exit(2)
	}
	res, err := run(context.Background(), os.Args[1])
	if err != nil {
		res.Error = err.Error()
	}
	out, _ := json.Marshal(res)
	fmt.Println(string(out))
	if err != nil {
		os.Exit(1)
	}
}

func run(ctx context.Context, action string) (result, error) {
	var res result
	text, err := os.ReadFile(os.Getenv("LANGUAGES_VALUES"))
	if err != nil {
		return res, err
	}
	prog, err := programOf(os.Getenv("LANGUAGES_PROGRAM"), text, action == "import")
	if err != nil {
		return res, err
	}
	stack, err := auto.UpsertStackInlineSource(ctx, os.Getenv("LANGUAGES_STACK"), os.Getenv("LANGUAGES_PROJECT"),
		prog, auto.WorkDir(os.Getenv("LANGUAGES_DIR")))
	if err != nil {
		return res, err
	}
	switch action {
	case "preview":
		planned := make(chan events.EngineEvent)
		done := make(chan struct{})
		go func() {
			for e := range planned {
				if e.ResourcePreEvent != nil {
					m := e.ResourcePreEvent.Metadata
					res.Steps = append(res.Steps, step{Op: string(m.Op), URN: m.URN})
				}
				if e.DiagnosticEvent != nil {
					res.Diagnostics = append(res.Diagnostics, e.DiagnosticEvent.Message)
				}
			}
			close(done)
		}()
		r, err := stack.Preview(ctx, optpreview.EventStreams(planned))
		<-done
		if err != nil {
			return res, err
		}
		res.Changes = map[string]int{}
		for op, n := range r.ChangeSummary {
			res.Changes[string(op)] = n
		}
	case "refresh", "refresh-drift":
		var opts []optrefresh.Option
		if action == "refresh" {
			opts = append(opts, optrefresh.ExpectNoChanges())
		}
		r, err := stack.Refresh(ctx, opts...)
		if err != nil {
			return res, err
		}
		res.Changes = changes(r.Summary.ResourceChanges)
	case "up", "import":
		r, err := stack.Up(ctx)
		if err != nil {
			return res, err
		}
		res.Changes = changes(r.Summary.ResourceChanges)
		res.Outputs = outputs(r.Outputs)
	case "destroy":
		r, err := stack.Destroy(ctx)
		if err != nil {
			return res, err
		}
		res.Changes = changes(r.Summary.ResourceChanges)
	default:
		return res, fmt.Errorf("unknown action %q", action)
	}
	if action != "up" && action != "import" {
		out, err := stack.Outputs(ctx)
		if err != nil && action != "destroy" {
			return res, err
		}
		res.Outputs = outputs(out)
	}
	return res, nil
}

// programOf is the program of the stack that LANGUAGES_PROGRAM names (stack, the default,
// or organization) with the step's values.
func programOf(name string, text []byte, adopt bool) (pulumi.RunFunc, error) {
	switch name {
	case "", "stack":
		var v Values
		if err := json.Unmarshal(text, &v); err != nil {
			return nil, fmt.Errorf("LANGUAGES_VALUES: %w", err)
		}
		return program(v, adopt), nil
	case "organization":
		var v OrganizationValues
		if err := json.Unmarshal(text, &v); err != nil {
			return nil, fmt.Errorf("LANGUAGES_VALUES: %w", err)
		}
		return organizationProgram(v, adopt), nil
	}
	return nil, fmt.Errorf("LANGUAGES_PROGRAM: unknown program %q", name)
}

func changes(m *map[string]int) map[string]int {
	if m == nil {
		return map[string]int{}
	}
	return *m
}

func outputs(m auto.OutputMap) map[string]any {
	out := map[string]any{}
	for k, v := range m {
		out[k] = v.Value
	}
	return out
}

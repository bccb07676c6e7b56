// gen-sdk writes the Python and Go SDKs of the provider plugin from its schema, with the
// code generators of the pinned Pulumi release (pkg/v3/codegen, the version in ../go.mod),
// so that the same schema always gives the same files.
//
//	go run ./gen-sdk SCHEMA OUT_DIR
//
// writes OUT_DIR/python and OUT_DIR/go, replacing what they held.
package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"

	gogen "github.com/pulumi/pulumi/pkg/v3/codegen/go"
	pygen "github.com/pulumi/pulumi/pkg/v3/codegen/python"
	"github.com/pulumi/pulumi/pkg/v3/codegen/schema"

	"github.com/blang/semver"
)

// noPackages is the loader of a schema that refers to no other package: the workspaces
// schema names only its own types and the built-in ones.
type noPackages struct{}

func (noPackages) refuse(name string) error {
	return fmt.Errorf("the schema refers to package %q; it may refer to no other package", name)
}

func (l noPackages) LoadPackage(pkg string, _ *semver.Version) (*schema.Package, error) {
	return nil, l.refuse(pkg)
}

func (l noPackages) LoadPackageV2(_ context.Context, d *schema.PackageDescriptor) (*schema.Package, error) {
	return nil, l.refuse(d.Name)
}

func (l noPackages) LoadPackageReference(pkg string, _ *semver.Version) (schema.PackageReference, error) {
	return nil, l.refuse(pkg)
}

func (l noPackages) LoadPackageReferenceV2(
	_ context.Context, d *schema.PackageDescriptor,
) (schema.PackageReference, error) {
	return nil, l.refuse(d.Name)
}

// The generator's name, as the generated files credit it.
const tool = "pulumi-workspaces-gen-sdk"

func main() {
	if len(os.Args) != 3 {
		fmt.Fprintln(os.Stderr, "usage: gen-sdk SCHEMA OUT_DIR")
		os.Exit(2)
	}
	if err := run(os.Args[1], os.Args[2]); err != nil {
		fmt.Fprintf(os.Stderr, "gen-sdk: %v\n", err)
		os.Exit(1)
	}
}

func run(schemaPath, out string) error {
	text, err := os.ReadFile(schemaPath)
	if err != nil {
		return err
	}
	var spec schema.PackageSpec
	if err := json.Unmarshal(text, &spec); err != nil {
		return fmt.Errorf("%s: %w", schemaPath, err)
	}
	bind := func() (*schema.Package, error) {
		pkg, diags, err := schema.BindSpec(spec, noPackages{}, schema.ValidationOptions{})
		if err != nil {
			return nil, err
		}
		if diags.HasErrors() {
			return nil, diags
		}
		return pkg, nil
	}

	pyPkg, err := bind()
	if err != nil {
		return fmt.Errorf("schema: %w", err)
	}
	py, err := pygen.GeneratePackage(tool, pyPkg, nil, noPackages{})
	if err != nil {
		return fmt.Errorf("python: %w", err)
	}
	goPkg, err := bind()
	if err != nil {
		return fmt.Errorf("schema: %w", err)
	}
	gofiles, err := gogen.GeneratePackage(tool, goPkg, nil)
	if err != nil {
		return fmt.Errorf("go: %w", err)
	}
	if err := write(filepath.Join(out, "python"), py); err != nil {
		return err
	}
	return write(filepath.Join(out, "go"), gofiles)
}

// write replaces dir with files, in name order.
func write(dir string, files map[string][]byte) error {
	if err := os.RemoveAll(dir); err != nil {
		return err
	}
	names := make([]string, 0, len(files))
	for name := range files {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(p, files[name], 0o644); err != nil {
			return err
		}
	}
	return nil
}

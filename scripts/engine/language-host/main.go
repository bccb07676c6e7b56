// Command pulumi-language-nodejs is a small Node.js language host for the
// Pulumi engine, built by scripts/install-pulumi next to the CLI.
//
// The engine's own Node.js language host is published as a Go module that the
// module proxy reachable from this project's machines does not serve, while the
// CLI and the SDK module are served. A language host is a thin launcher: the
// engine asks it (over gRPC) to run a program or a policy pack, and the real
// work happens in @pulumi/pulumi's own `cmd/run` and `cmd/run-policy-pack`
// scripts, which connect back to the engine. This host implements exactly that
// contract with the SDK module's gRPC types; everything it does not implement
// answers Unimplemented, which the engine treats as "feature not offered".
package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"

	"github.com/pulumi/pulumi/sdk/v3/go/common/util/rpcutil"
	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
	"google.golang.org/grpc"
	"google.golang.org/protobuf/types/known/emptypb"
	"google.golang.org/protobuf/types/known/structpb"
)

// version is set with -ldflags to the engine release it is built with.
var version = "3.0.0"

// exitAfterUserMessage is the exit code @pulumi/pulumi uses when it has already
// printed an actionable error; the engine should then not add its own.
const exitAfterUserMessage = 32

type host struct {
	pulumirpc.UnimplementedLanguageRuntimeServer
	mu            sync.Mutex
	engineAddress string
}

func main() {
	// The engine passes its own address as the last positional argument; flags
	// that newer engines may add are ignored rather than rejected.
	h := &host{}
	for _, a := range os.Args[1:] {
		if !strings.HasPrefix(a, "-") {
			h.engineAddress = a
		}
	}
	handle, err := rpcutil.ServeWithOptions(rpcutil.ServeOptions{
		Init: func(srv *grpc.Server) error {
			pulumirpc.RegisterLanguageRuntimeServer(srv, h)
			return nil
		},
	})
	if err != nil {
		fmt.Fprintf(os.Stderr, "pulumi-language-nodejs: could not start the gRPC server: %v\n", err)
		os.Exit(1)
	}
	fmt.Printf("%d\n", handle.Port)
	if err := <-handle.Done; err != nil {
		fmt.Fprintf(os.Stderr, "pulumi-language-nodejs: stopped serving: %v\n", err)
		os.Exit(1)
	}
}

func (h *host) Handshake(
	ctx context.Context, req *pulumirpc.LanguageHandshakeRequest,
) (*pulumirpc.LanguageHandshakeResponse, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if req.GetEngineAddress() != "" {
		h.engineAddress = req.GetEngineAddress()
	}
	return &pulumirpc.LanguageHandshakeResponse{}, nil
}

func (h *host) GetPluginInfo(context.Context, *emptypb.Empty) (*pulumirpc.PluginInfo, error) {
	return &pulumirpc.PluginInfo{Version: version}, nil
}

// GetRequiredPlugins reports none: the only provider these programs use is the
// dynamic-provider host, which the engine loads on demand from PATH.
func (h *host) GetRequiredPlugins(
	context.Context, *pulumirpc.GetRequiredPluginsRequest,
) (*pulumirpc.GetRequiredPluginsResponse, error) {
	return &pulumirpc.GetRequiredPluginsResponse{}, nil
}

func (h *host) GetRequiredPackages(
	context.Context, *pulumirpc.GetRequiredPackagesRequest,
) (*pulumirpc.GetRequiredPackagesResponse, error) {
	return &pulumirpc.GetRequiredPackagesResponse{}, nil
}

// InstallDependencies is a no-op: programs here are installed with npm by the
// project's own scripts, never by the engine.
func (h *host) InstallDependencies(
	*pulumirpc.InstallDependenciesRequest, grpc.ServerStreamingServer[pulumirpc.InstallDependenciesResponse],
) error {
	return nil
}

// resolveModule asks node where a module resolves from dir, the way the
// program itself will resolve it.
func resolveModule(dir, mod string) (string, error) {
	cmd := exec.Command("node", "-e", "process.stdout.write(require.resolve(process.argv[1]))", mod)
	cmd.Dir = dir
	out, err := cmd.Output()
	if err != nil {
		return "", fmt.Errorf("cannot resolve %s from %s (is @pulumi/pulumi installed there?): %w", mod, dir, err)
	}
	return string(out), nil
}

// runtimeOptions reads Pulumi.yaml's runtime options into the environment the
// SDK's run script expects, with the same defaults as the engine's own host.
// A relative tsconfig path is relative to the project root (where Pulumi.yaml
// is), not to the directory the program runs in.
func runtimeOptions(opts *structpb.Struct, rootDir string) (env []string, nodeArgs []string) {
	m := map[string]any{}
	if opts != nil {
		m = opts.AsMap()
	}
	typescript := true
	if v, ok := m["typescript"].(bool); ok {
		typescript = v
	}
	env = append(env, fmt.Sprintf("PULUMI_NODEJS_TYPESCRIPT=%t", typescript))
	if v, ok := m["tsconfig"].(string); ok && v != "" {
		if !filepath.IsAbs(v) && rootDir != "" {
			v = filepath.Join(rootDir, v)
		}
		env = append(env, "PULUMI_NODEJS_TSCONFIG_PATH="+v)
	}
	if v, ok := m["nodeargs"].(string); ok && v != "" {
		nodeArgs = strings.Fields(v)
	}
	return env, nodeArgs
}

func (h *host) Run(ctx context.Context, req *pulumirpc.RunRequest) (*pulumirpc.RunResponse, error) {
	info := req.GetInfo()
	programDir := req.GetPwd()
	if info != nil && info.GetProgramDirectory() != "" {
		programDir = info.GetProgramDirectory()
	}
	runPath, err := resolveModule(programDir, "@pulumi/pulumi/cmd/run")
	if err != nil {
		return &pulumirpc.RunResponse{Error: err.Error()}, nil
	}

	optEnv, nodeArgs := runtimeOptions(info.GetOptions(), info.GetRootDirectory())
	args := append(nodeArgs, runPath)
	flag := func(k, v string) {
		if v != "" {
			args = append(args, "--"+k+"="+v)
		}
	}
	h.mu.Lock()
	engine := h.engineAddress
	h.mu.Unlock()
	flag("monitor", req.GetMonitorAddress())
	flag("engine", engine)
	flag("organization", req.GetOrganization())
	flag("project", req.GetProject())
	flag("stack", req.GetStack())
	flag("pwd", req.GetPwd())
	if info != nil {
		flag("root-directory", info.GetRootDirectory())
	}
	if req.GetDryRun() {
		args = append(args, "--dry-run")
	}
	if req.GetParallel() > 0 {
		flag("parallel", fmt.Sprint(req.GetParallel()))
	}
	program := req.GetProgram()
	if info != nil && info.GetEntryPoint() != "" && info.GetEntryPoint() != "." {
		program = filepath.Join(programDir, info.GetEntryPoint())
	}
	if program == "" {
		program = "."
	}
	args = append(args, program)
	args = append(args, req.GetArgs()...)

	config, err := json.Marshal(nonNil(req.GetConfig()))
	if err != nil {
		return nil, err
	}
	secretKeys, err := json.Marshal(nonNilSlice(req.GetConfigSecretKeys()))
	if err != nil {
		return nil, err
	}

	cmd := exec.CommandContext(ctx, "node", args...)
	cmd.Dir = req.GetPwd()
	cmd.Stdout = os.Stdout
	cmd.Stderr = os.Stderr
	cmd.Env = append(os.Environ(), optEnv...)
	cmd.Env = append(cmd.Env, "PULUMI_CONFIG="+string(config), "PULUMI_CONFIG_SECRET_KEYS="+string(secretKeys))
	if err := cmd.Run(); err != nil {
		var exitErr *exec.ExitError
		if errors.As(err, &exitErr) {
			if exitErr.ExitCode() == exitAfterUserMessage {
				return &pulumirpc.RunResponse{Bail: true}, nil
			}
			return &pulumirpc.RunResponse{
				Error: fmt.Sprintf("Program exited with non-zero exit code: %d", exitErr.ExitCode()),
			}, nil
		}
		return &pulumirpc.RunResponse{Error: fmt.Sprintf("could not run node: %v", err)}, nil
	}
	return &pulumirpc.RunResponse{}, nil
}

// RunPlugin runs a Node.js policy pack from source: the engine connects to the
// gRPC port that @pulumi/policy prints on the first line of stdout.
func (h *host) RunPlugin(
	req *pulumirpc.RunPluginRequest, server grpc.ServerStreamingServer[pulumirpc.RunPluginResponse],
) error {
	info := req.GetInfo()
	dir := req.GetProgram()
	if info != nil && info.GetProgramDirectory() != "" {
		dir = info.GetProgramDirectory()
	}
	if dir == "" {
		return errors.New("RunPlugin: no plugin directory given")
	}
	if req.GetKind() != "" && req.GetKind() != "analyzer" {
		return fmt.Errorf("RunPlugin: plugins of kind %q are not supported by this host", req.GetKind())
	}
	runPath, err := resolveModule(dir, "@pulumi/pulumi/cmd/run-policy-pack")
	if err != nil {
		return err
	}
	optEnv, nodeArgs := runtimeOptions(info.GetOptions(), info.GetRootDirectory())
	args := append(nodeArgs, runPath)
	args = append(args, req.GetArgs()...)
	if len(req.GetArgs()) == 0 {
		h.mu.Lock()
		args = append(args, h.engineAddress)
		h.mu.Unlock()
	}
	args = append(args, dir)

	cmd := exec.CommandContext(server.Context(), "node", args...)
	cmd.Dir = dir
	cmd.Env = append(append(os.Environ(), req.GetEnv()...), optEnv...)
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return err
	}
	stderr, err := cmd.StderrPipe()
	if err != nil {
		return err
	}
	if err := cmd.Start(); err != nil {
		return err
	}

	var sendMu sync.Mutex
	send := func(r *pulumirpc.RunPluginResponse) {
		sendMu.Lock()
		defer sendMu.Unlock()
		_ = server.Send(r)
	}
	var wg sync.WaitGroup
	pump := func(r io.Reader, wrap func([]byte) *pulumirpc.RunPluginResponse) {
		defer wg.Done()
		buf := make([]byte, 32*1024)
		for {
			n, err := r.Read(buf)
			if n > 0 {
				send(wrap(append([]byte(nil), buf[:n]...)))
			}
			if err != nil {
				return
			}
		}
	}
	wg.Add(2)
	go pump(stdout, func(b []byte) *pulumirpc.RunPluginResponse {
		return &pulumirpc.RunPluginResponse{Output: &pulumirpc.RunPluginResponse_Stdout{Stdout: b}}
	})
	go pump(stderr, func(b []byte) *pulumirpc.RunPluginResponse {
		return &pulumirpc.RunPluginResponse{Output: &pulumirpc.RunPluginResponse_Stderr{Stderr: b}}
	})
	wg.Wait()
	code := int32(0)
	if err := cmd.Wait(); err != nil {
		var exitErr *exec.ExitError
		if !errors.As(err, &exitErr) {
			return err
		}
		code = int32(exitErr.ExitCode())
	}
	send(&pulumirpc.RunPluginResponse{Output: &pulumirpc.RunPluginResponse_Exitcode{Exitcode: code}})
	return nil
}

func nonNil(m map[string]string) map[string]string {
	if m == nil {
		return map[string]string{}
	}
	return m
}

func nonNilSlice(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

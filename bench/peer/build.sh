#!/usr/bin/env bash
# Builds OpenTofu and terraform-provider-tfe from the Go module proxy into a cache
# outside the repository. `go install mod@version` refuses both modules (they carry
# replace directives), so each module is fetched with `go mod download`, copied to a
# writable directory and built there. Re-running is cheap: existing binaries are kept.
set -euo pipefail
TOFU_VERSION="${TOFU_VERSION:-v1.12.6}"
TFE_VERSION="${TFE_VERSION:-v0.79.0}"
CACHE="${PEER_CACHE:-$HOME/.cache/pulumi-workspaces/peer}"
mkdir -p "$CACHE/bin" "$CACHE/src" "$CACHE/scratch"
export GOFLAGS="${GOFLAGS:-} -mod=mod"

fetch() { # module version -> prints the module's directory in GOMODCACHE
  (cd "$CACHE/scratch" && { [ -f go.mod ] || go mod init scratch >/dev/null 2>&1; } &&
    go mod download -json "$1@$2" | sed -n 's/^[[:space:]]*"Dir": "\(.*\)",\{0,1\}$/\1/p')
}

build() { # module version package output
  local mod="$1" ver="$2" pkg="$3" out="$4"
  if [ -x "$out" ]; then echo "have $out"; return; fi
  local dir; dir="$(fetch "$mod" "$ver")"
  [ -n "$dir" ] || { echo "could not download $mod@$ver" >&2; exit 1; }
  local work="$CACHE/src/$(basename "$mod")-$ver"
  rm -rf "$work"; cp -r "$dir" "$work"; chmod -R u+w "$work"
  echo "building $mod@$ver ($pkg) in $work"
  (cd "$work" && CGO_ENABLED=0 nice -n 10 go build -trimpath -o "$out.tmp" "$pkg" && mv "$out.tmp" "$out")
  echo "built $out"
}

only="${1:-all}"
if [ "$only" = all ] || [ "$only" = tofu ]; then
  build github.com/opentofu/opentofu "$TOFU_VERSION" ./cmd/tofu "$CACHE/bin/tofu"
fi
if [ "$only" = all ] || [ "$only" = tfe ]; then
  build github.com/hashicorp/terraform-provider-tfe "$TFE_VERSION" . "$CACHE/bin/terraform-provider-tfe"
fi

#!/usr/bin/env bash
# The steps of github-actions.yml as a plain script, for any CI system (or a
# laptop): `pulumi preview` with the policy pack on a change request, `pulumi up`
# with the policy pack on the main branch.
#
#   pulumi-ci.sh preview    # on pull/merge requests
#   pulumi-ci.sh up         # on the main branch
#   pulumi-ci.sh refresh    # on a schedule: reads every resource back (drift)
#
# Environment (names match the workflow):
#   PULUMI_STACK             stack to preview or update (required)
#   PROGRAM_DIR              folder holding Pulumi.yaml (default: .)
#   POLICY_PACK              folder holding PulumiPolicy.yaml and a package.json that depends on
#                            pulumi-workspaces-policies (default: policy-pack, the README's layout;
#                            set it empty, POLICY_PACK="", to run without a policy pack)
#   POLICY_CONFIG            policy config file (no default: unset or empty, the rules' defaults)
#   WORKSPACES_TOKEN         API token of the service, from the CI system's secret store
#                            (TFE_TOKEN, the engine CLI's credentials file or the stack's
#                            secret config workspaces:token also work)
#   WORKSPACES_ADDRESS       service address; WORKSPACES_ORGANIZATION default organization
#   PULUMI_ACCESS_TOKEN, or PULUMI_BACKEND_URL plus PULUMI_CONFIG_PASSPHRASE: the Pulumi state backend
#
# Dependencies are installed in a folder that has a package.json and no node_modules
# yet: `npm ci` with a package-lock.json, `npm install` without (a YAML, Python or Go
# program has no package.json: install its own beforehand).
# Exit status: the CLI's. A mandatory policy violation fails preview and up alike;
# `up` previews first (no --skip-preview) because stack-wide rules are judged on
# the whole stack, which an update without preview would only see after applying.
# `refresh` runs with --skip-preview: `pulumi refresh --yes` alone previews first and
# so reads every record from the service twice.
set -euo pipefail

mode="${1:-}"
case "$mode" in
  preview | up | refresh) ;;
  *)
    echo "usage: $0 preview|up|refresh" >&2
    exit 2
    ;;
esac

: "${PULUMI_STACK:?set PULUMI_STACK to the stack to $mode}"
program_dir="${PROGRAM_DIR:-.}"
# Unset: the default folder; set but empty: no policy pack.
policy_pack="${POLICY_PACK-policy-pack}"
policy_args=()
if [[ -n "$policy_pack" ]]; then
  if [[ ! -f "$policy_pack/PulumiPolicy.yaml" ]]; then
    echo "no policy pack in $policy_pack (no PulumiPolicy.yaml): set POLICY_PACK to its folder, or POLICY_PACK=\"\" to run without one" >&2
    exit 2
  fi
  # Resolved before changing directory, so relative paths mean the same as in the workflow.
  policy_pack="$(cd "$policy_pack" && pwd)"
  policy_args=(--policy-pack "$policy_pack")
  if [[ -n "${POLICY_CONFIG:-}" ]]; then
    policy_args+=(--policy-pack-config "$(cd "$(dirname "$POLICY_CONFIG")" && pwd)/$(basename "$POLICY_CONFIG")")
  fi
fi

# Checked here so the run fails in one line instead of once per resource. The token may be
# in the environment, in the credentials file or in the stack's config (set with --secret).
if [[ -z "${WORKSPACES_TOKEN:-}${TFE_TOKEN:-}" && ! -f "$HOME/.terraform.d/credentials.tfrc.json" ]] &&
  ! grep -Eqs "(^|[[:space:]{,])[\"']?workspaces:token[\"']?[[:space:]]*:" "$program_dir/Pulumi.$PULUMI_STACK.yaml"; then
  echo "no API token: set WORKSPACES_TOKEN from the CI system's secret store (or pulumi config set --secret workspaces:token)" >&2
  exit 2
fi

install() {
  if [[ -f "$1/package.json" && ! -d "$1/node_modules" ]]; then
    if [[ -f "$1/package-lock.json" ]]; then (cd "$1" && npm ci --no-audit --no-fund); else (cd "$1" && npm install --no-audit --no-fund); fi
  fi
}
install "$program_dir"
if [[ -n "$policy_pack" ]]; then install "$policy_pack"; fi

cd "$program_dir"
export PULUMI_SKIP_UPDATE_CHECK=true
case "$mode" in
  preview)
    pulumi preview --stack "$PULUMI_STACK" --non-interactive --diff ${policy_args[@]+"${policy_args[@]}"}
    ;;
  up)
    pulumi up --stack "$PULUMI_STACK" --non-interactive --yes ${policy_args[@]+"${policy_args[@]}"}
    ;;
  refresh)
    pulumi refresh --stack "$PULUMI_STACK" --non-interactive --yes --skip-preview
    ;;
esac

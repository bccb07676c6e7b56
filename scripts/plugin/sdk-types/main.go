// Compiled by `scripts/plugin/sdks --check` against the generated Go SDK: the types the
// schema promises are the types a Go program gets. A value that may be absent is a
// pointer (`*string`, `*int`), a whole number an `int`, a closed set of strings an enum
// whose constants are string inputs, while a plain string still goes where an enum is
// taken (programs written before the enums existed keep compiling). Never run.
package main

import (
	"github.com/pulumi-workspaces/pulumi-workspaces/sdk/go/workspaces"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
)

func outputs(w *workspaces.Workspace, n *workspaces.NoCodeWorkspace, d *workspaces.DataRetentionPolicy, v *workspaces.WorkspaceVariables, t *workspaces.Team) {
	var items workspaces.VariableInfoArrayOutput = v.Variables
	var reported workspaces.VariableCategoryInfo = workspaces.VariableCategoryInfoEnv
	var others pulumi.BoolMapOutput = t.OrganizationAccess.OtherFlags()
	_, _, _ = items, reported, others
	var description pulumi.StringPtrOutput = w.Description
	var directory pulumi.StringPtrOutput = w.WorkingDirectory
	var vcs workspaces.VcsRepoInfoPtrOutput = w.VcsRepo
	var timeout pulumi.IntOutput = n.UpgradeTimeoutSeconds
	var count pulumi.IntOutput = n.ResourceCount
	var version pulumi.StringPtrOutput = n.ModuleVersion
	var upgrade workspaces.NoCodeWorkspaceLastUpgradePtrOutput = n.LastUpgrade
	var days pulumi.IntPtrOutput = d.DeleteOlderThanNDays
	_ = description.ApplyT(func(v *string) string {
		if v == nil {
			return ""
		}
		return *v
	})
	_, _, _, _, _, _, _ = directory, vcs, timeout, count, version, upgrade, days
}

func inputs() []any {
	return []any{
		workspaces.WorkspaceArgs{
			Name:          pulumi.String("app"),
			ExecutionMode: workspaces.ExecutionModeAgent,
			Description:   pulumi.String(""),
			VcsRepo:       &workspaces.VcsRepoArgs{},
		},
		workspaces.WorkspaceArgs{Name: pulumi.String("old"), ExecutionMode: pulumi.String("remote")},
		workspaces.NoCodeWorkspaceArgs{
			UpgradeStrategy:       workspaces.UpgradeStrategyInPlace,
			UpgradeTimeoutSeconds: pulumi.Int(600),
			Variables: workspaces.NoCodeVariableArray{workspaces.NoCodeVariableArgs{
				Key:       pulumi.String("password"),
				Category:  workspaces.NoCodeVariableCategoryEngine,
				Sensitive: pulumi.Bool(true),
			}},
		},
		workspaces.WorkspaceTagsArgs{Mode: workspaces.OwnershipModeAdditive},
		// An input's enum has the plain name (`VariableCategory`, with the wire's `terraform`);
		// the output's, `VariableCategoryInfo`, has only the values the service reports.
		workspaces.WorkspaceVariablesArgs{Variables: workspaces.VariableArray{workspaces.VariableArgs{
			Key:      pulumi.String("region"),
			Category: workspaces.VariableCategoryTerraform,
		}}},
		// A team flag this release does not know, carried as it is in every language.
		workspaces.TeamArgs{OrganizationAccess: workspaces.OrganizationAccessArgs{
			ManageWorkspaces: pulumi.Bool(true),
			OtherFlags:       pulumi.BoolMap{"manageNewThing": pulumi.Bool(true)},
		}},
		workspaces.DataRetentionPolicyArgs{DeleteOlderThanNDays: pulumi.Int(30)},
	}
}

func main() {
	_ = outputs
	_ = inputs
}

// Pulumi resources, a typed client, a policy pack and a faithful local server for infrastructure-engine workspaces and no-code provisioning
package workspaces

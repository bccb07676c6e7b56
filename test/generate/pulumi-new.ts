/**
 * The folder `pulumi new typescript` leaves, written without the network: its project file
 * (with the template's stack tag in project config), package.json after
 * `npm install pulumi-workspaces @pulumi/pulumi`, tsconfig.json, index.ts and .gitignore.
 */
export function pulumiNewTypescript(project: string): Record<string, string> {
  const json = (value: unknown) => `${JSON.stringify(value, null, 4)}\n`;
  return {
    "Pulumi.yaml": `name: ${project}
description: A minimal TypeScript Pulumi program
runtime:
  name: nodejs
  options:
    packagemanager: npm
config:
  pulumi:tags:
    value:
      pulumi:template: typescript
`,
    "package.json": json({
      name: project,
      devDependencies: { "@types/node": "^20" },
      dependencies: { "@pulumi/pulumi": "^3.248.0", "pulumi-workspaces": "*" },
    }),
    "tsconfig.json": json({
      compilerOptions: {
        strict: true,
        outDir: "bin",
        target: "es2020",
        module: "commonjs",
        moduleResolution: "node",
        sourceMap: true,
        experimentalDecorators: true,
        pretty: true,
        noFallthroughCasesInSwitch: true,
        noImplicitReturns: true,
        forceConsistentCasingInFileNames: true,
      },
      files: ["index.ts"],
    }),
    "index.ts": 'import * as pulumi from "@pulumi/pulumi";\n',
    ".gitignore": "/bin/\n/node_modules/\n",
  };
}

/**
 * OTF serves none of the service's policies: it answers 404 on an organization's policy
 * and policy set routes while the organization reads fine. The client says so with
 * `FeatureUnavailableError` (`policies`, `policy sets`), and a program that declares a
 * `Policy` and a `PolicySet` fails with one message for each, naming the feature, with no
 * stack trace, no record written and nothing in the state.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FeatureUnavailableError, WorkspacesClient } from "../../src/client";
import { TestStack } from "../e2e/harness";
import {
  createOrganization,
  expectOneMessageEach,
  failure,
  otfApi,
  otfEnv,
  otfServer,
  runOrganization,
  type OtfServer,
} from "./otf";

const org = runOrganization("policies");
let otf: OtfServer;
let client: WorkspacesClient;

beforeAll(async () => {
  otf = otfServer();
  await createOrganization(otf, org);
  client = new WorkspacesClient({ address: otf.url, token: otf.token, organization: org, env: {} });
});

describe("policies and policy sets on OTF", () => {
  it("the client fails with FeatureUnavailableError naming the feature", async () => {
    const sets = await failure(client.policySets.list(org).all());
    expect(sets, sets.message).toBeInstanceOf(FeatureUnavailableError);
    expect((sets as FeatureUnavailableError).feature).toBe("policy sets");
    expect(sets.message).toContain("does not offer policy sets");
    const policies = await failure(client.policies.list(org).all());
    expect(policies, policies.message).toBeInstanceOf(FeatureUnavailableError);
    expect((policies as FeatureUnavailableError).feature).toBe("policies");
    expect(policies.message).toContain("does not offer policies");
  });

  describe("through the engine", () => {
    let stack: TestStack;
    beforeAll(async () => {
      stack = await TestStack.create({
        project: "otf-policy-sets",
        files: {
          "index.ts": `
import { Policy, PolicySet } from "pulumi-workspaces";
new Policy("policy", { name: "otf-policy", code: "main = rule { true }\\n", enforcementLevel: "advisory" });
new PolicySet("set", { name: "otf-set", description: "never made" });
`,
        },
        env: otfEnv(otf, org),
      });
    });
    afterAll(() => stack?.dispose());

    it("a program with a Policy and a PolicySet fails with one message each naming the feature, and writes nothing", async () => {
      const r = await stack.upWithEvents(["--continue-on-error"]);
      expect(r.code, r.output).not.toBe(0);
      expectOneMessageEach(r, [
        ["policy", /does not offer policies/],
        ["set", /does not offer policy sets/],
      ]);
      expect(stack.resources("dynamic/workspaces:PolicySet")).toEqual([]);
      expect(stack.resources("dynamic/workspaces:Policy")).toEqual([]);
      // OTF still answers 404 on the routes: nothing was made behind the program's back.
      expect((await otfApi(otf, `/organizations/${org}/policy-sets`)).status).toBe(404);
      expect((await otfApi(otf, `/organizations/${org}`)).status).toBe(200);
    });
  });
});

/**
 * The project calls of the client against the local server: create, update (rename and
 * description), delete, a name taken refused as the service refuses it, and a project
 * that still holds workspaces refused with its reason.
 */
import { describe, expect, it } from "vitest";
import { ConflictError, NotFoundError, ValidationError } from "../../src/client";
import { failure, uniqueName, useServer } from "./helpers";

const t = useServer();

describe("projects", () => {
  it("creates, renames, describes and deletes a project", async () => {
    const name = uniqueName("prj");
    const p = await t.client.projects.create(t.org, { name, description: "first" });
    expect(p.id).toMatch(/^prj-/);
    expect(p).toMatchObject({ name, description: "first", organization: t.org });

    const renamed = await t.client.projects.update(p.id, { name: `${name}-b` });
    expect(renamed).toMatchObject({ name: `${name}-b`, description: "first" });
    const cleared = await t.client.projects.update(p.id, { description: "" });
    expect(cleared.description ?? "").toBe("");
    expect((await t.client.projects.read(p.id)).name).toBe(`${name}-b`);

    await t.client.projects.delete(p.id);
    expect(await failure(t.client.projects.read(p.id))).toBeInstanceOf(NotFoundError);
    expect(await failure(t.client.projects.delete(p.id))).toBeInstanceOf(NotFoundError);
  });

  it("a name taken is a ValidationError; a project with workspaces is a conflict", async () => {
    const name = uniqueName("taken");
    const p = await t.client.projects.create(t.org, { name });
    const taken = await failure(t.client.projects.create(t.org, { name }));
    expect(taken).toBeInstanceOf(ValidationError);
    expect((taken as ValidationError).problems.map((x) => x.detail).join(" ")).toMatch(/already been taken/);

    const ws = await t.client.workspaces.create(t.org, { name: uniqueName("held"), projectId: p.id });
    const held = await failure(t.client.projects.delete(p.id));
    expect(held).toBeInstanceOf(ConflictError);
    expect((await t.client.projects.read(p.id)).id).toBe(p.id);
    await t.client.workspaces.safeDelete(ws.id);
    await t.client.projects.delete(p.id);
  });
});

/** Requests Node's HTTP parser cannot read still get a JSON:API error, and the server stays up. */
import { describe, it, expect, beforeAll, afterAll } from "vitest";
import { connect } from "node:net";
import { startServer, type RunningServer } from "../../src/server";

let server: RunningServer;
beforeAll(async () => {
  server = await startServer({ port: 0, db: ":memory:", rateLimit: false });
});
afterAll(async () => server.close());

function raw(text: string): Promise<string> {
  const url = new URL(server.url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(url.port), url.hostname, () => socket.write(text));
    let answer = "";
    socket.on("data", (chunk: Buffer) => (answer += chunk.toString()));
    socket.on("close", () => resolve(answer));
    socket.on("error", reject);
  });
}

describe("unparsable HTTP", () => {
  for (const [what, text] of [
    ["a non-numeric Content-Length", "GET /api/v2/ping HTTP/1.1\r\nHost: x\r\nContent-Length: abc\r\n\r\n"],
    ["a request line that is not HTTP", "HELLO THERE\r\n\r\n"],
  ]) {
    it(`answers ${what} with a JSON:API 400`, async () => {
      const answer = await raw(text);
      expect(answer.startsWith("HTTP/1.1 400")).toBe(true);
      expect(answer).toContain("Content-Type: application/vnd.api+json");
      const body = JSON.parse(answer.slice(answer.indexOf("\r\n\r\n") + 4));
      expect(body.errors[0].status).toBe("400");
      const ping = await fetch(server.url + "/ping");
      expect(ping.ok).toBe(true);
    });
  }
});

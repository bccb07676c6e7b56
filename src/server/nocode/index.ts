import type { Domain } from "../context";

/** No-code provisioning (spec 4.12 to 4.16). */
export const nocodeDomain: Domain = { name: "nocode", routes() {} };

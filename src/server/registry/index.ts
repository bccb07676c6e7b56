import type { Domain } from "../context";

/** Private registry modules and their versions. */
export const registryDomain: Domain = { name: "registry", routes() {} };

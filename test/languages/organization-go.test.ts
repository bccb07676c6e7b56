/** The stack of organization.json as a Go program on the generated Go SDK, run by the Automation API in Go. */
import { organizationSuite } from "./organization-suite";

organizationSuite("go");

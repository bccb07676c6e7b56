/** The stack of organization.json as a YAML program on the YAML language host, through the CLI. */
import { organizationSuite } from "./organization-suite";

organizationSuite("yaml");

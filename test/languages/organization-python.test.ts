/** The stack of organization.json as a Python program on the generated SDK's wheel, run by the Automation API in Python. */
import { organizationSuite } from "./organization-suite";

organizationSuite("python");

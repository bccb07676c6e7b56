/** The stack of stack.json as a YAML program on the YAML language host, through the CLI. */
import { languageSuite } from "./suite";

languageSuite("yaml");

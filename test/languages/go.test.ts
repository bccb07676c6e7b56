/** The stack of stack.json as a Go program on the generated Go SDK (a replace of sdk/), run by the Automation API in Go. */
import { languageSuite } from "./suite";

languageSuite("go");

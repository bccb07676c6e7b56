/** The stack of stack.json as a Python program on the generated Python SDK (its wheel), run by the Automation API in Python. */
import { languageSuite } from "./suite";

languageSuite("python");

import { startCardFrame } from "./start";

startCardFrame(document.getElementById("card")!);

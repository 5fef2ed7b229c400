import { startCardFrame } from "./start";

void startCardFrame(document.getElementById("card")!);

/** Entry point: picks the language, builds the app shell and shows the first page. */
import "./style.css";
import { initLang } from "./i18n/i18n";
import { startApp } from "./app";
import { startOfflineApp } from "./ui/appUpdate";

initLang();
const root = document.getElementById("app")!;
startApp(root);
startOfflineApp(root);

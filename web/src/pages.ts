/** Builds the page of a route. */
import type { RouteMatch } from "./router";
import type { Page } from "./ui/page";
import { HomePage } from "./pages/homePage";
import { NotFoundPage } from "./pages/notFoundPage";
import { RulesPage } from "./pages/rulesPage";
import { OfflineGamePage } from "./offline/gamePage";
import { SetupPage } from "./offline/setupPage";
import { parseSetup } from "./offline/setup";
import { LearnPage } from "./learn/learnPage";
import { LessonPage } from "./learn/lessonPage";
import { lessonById } from "./learn/lessons";

/** The page for a matched route and the query string. */
export function createPage(route: RouteMatch, search: string): Page {
  switch (route.name) {
    case "home":
      return new HomePage();
    case "offline": {
      const setup = parseSetup(search);
      return setup ? new OfflineGamePage(setup) : new SetupPage();
    }
    case "rules":
      return new RulesPage();
    case "learn":
      return new LearnPage();
    case "lesson": {
      const lesson = lessonById(route.params.id);
      return lesson ? new LessonPage(lesson) : new NotFoundPage();
    }
    default:
      return new NotFoundPage();
  }
}

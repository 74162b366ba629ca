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
import { LoginPage } from "./online/loginPage";
import { LobbyPage } from "./online/lobbyPage";
import { TablePage } from "./online/tablePage";
import { GamesPage } from "./online/gamesPage";
import { ReplayPage } from "./online/replayPage";
import { LeaderboardPage } from "./online/leaderboardPage";
import { AnalysisPage } from "./analysis/analysisPage";
import { parseAnalysisQuery } from "./analysis/link";
import { PuzzlePage } from "./puzzles/puzzlePage";
import { BotPage } from "./account/botPage";

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
    case "login":
      return new LoginPage("login");
    case "register":
      return new LoginPage("register");
    case "lobby":
      return new LobbyPage();
    case "table":
      return new TablePage(route.params.id);
    case "games":
      return new GamesPage(route.params.user);
    case "replay":
      return new ReplayPage(route.params.id);
    case "leaderboard":
      return new LeaderboardPage();
    case "analysis":
      return new AnalysisPage(parseAnalysisQuery(search));
    case "puzzles":
      return new PuzzlePage(null);
    case "puzzle":
      return new PuzzlePage(route.params.id);
    case "bot":
      return new BotPage();
    case "notFound":
      return new NotFoundPage();
  }
}

/** A modal yes/no question built on `<dialog>`. */
import { h } from "./dom";

/** Asks a question; resolves `true` when the person confirms. */
export function confirmDialog(question: string, yes: string, no: string): Promise<boolean> {
  return new Promise((resolve) => {
    const dialog = h("dialog", { class: "confirm", "aria-label": question });
    const done = (answer: boolean) => {
      dialog.close();
      dialog.remove();
      resolve(answer);
    };
    dialog.append(
      h("p", {}, question),
      h("div", { class: "buttons" },
        h("button", { type: "button", class: "primary", "data-confirm": "yes", onclick: () => done(true) }, yes),
        h("button", { type: "button", "data-confirm": "no", onclick: () => done(false) }, no)),
    );
    dialog.addEventListener("cancel", (e) => {
      e.preventDefault();
      done(false);
    });
    document.body.append(dialog);
    dialog.showModal();
  });
}

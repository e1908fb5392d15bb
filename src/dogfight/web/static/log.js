// The event log: every event with its dice and clause id, filters, and the clause popover.
import { renderMarkdown } from "/static/markdown.js";
import { api, el, showError } from "/static/api.js";

/** Dice as a short text, whatever shape the server sends (list, table or text). */
export function diceText(dice) {
  if (dice === null || dice === undefined || dice === "") return "";
  if (Array.isArray(dice)) return dice.map(diceText).join(" ");
  if (typeof dice === "object") {
    return Object.entries(dice).map(([k, v]) => `${k}: ${diceText(v)}`).join("; ");
  }
  return String(dice);
}

/** Which filter names an event passes for a seat (`all` always). */
export function logClasses(entry, seat) {
  const passes = ["all"];
  if (seat && entry.side === seat) passes.push("mine");
  if (seat && entry.side && entry.side !== seat) passes.push("enemy");
  if (entry.hit) passes.push("hits");
  return passes;
}

export class LogView {
  constructor(list, filters, popover) {
    this.list = list;
    this.popover = popover;
    this.filter = "all";
    this.shownKey = null;
    this.ruleset = null;
    for (const input of filters.querySelectorAll("input[name=log-filter]")) {
      input.addEventListener("change", () => {
        if (input.checked) this.setFilter(input.value);
      });
    }
    this.filters = filters;
    list.addEventListener("click", (event) => {
      const button = event.target.closest("button.clause");
      if (button) this.openClause(button.dataset.clause);
    });
    popover.querySelector("#clause-close").addEventListener("click", () => { popover.hidden = true; });
    document.addEventListener("keydown", (event) => {
      if (event.key === "Escape") popover.hidden = true;
    });
  }

  setFilter(name) {
    this.filter = name;
    this.list.dataset.filter = name;
    for (const item of this.list.children) {
      item.hidden = !item.dataset.passes.split(" ").includes(name);
    }
  }

  /** Show the view's log; redrawn only when it changed (new events, another seat or
   * step, or the playback moved on). `shown.until`: while the computer's actions are
   * played back, the first action (step) not shown yet (null: all shown). `shown.why`:
   * a "why?" button on the first line of each computer decision, calling `onWhy(step)`.
   * The last action's lines shown are highlighted, and the list follows the newest
   * lines unless the reader has scrolled back. */
  render(view, shown = {}) {
    this.ruleset = view.ruleset;
    for (const value of ["mine", "enemy"]) {
      this.filters.querySelector(`input[value=${value}]`).disabled = !view.seat;
    }
    const until = shown.until ?? null;
    const log = (view.log || []).filter((entry) => until === null || entry.step === null
      || entry.step === undefined || entry.step < until);
    const steps = log.map((entry) => entry.step).filter((step) => step !== null && step !== undefined);
    const last = steps.length ? Math.max(...steps) : null;
    const why = Boolean(shown.why);
    const key = `${view.seat}|${view.step}|${log.length}|${log.length ? log[log.length - 1].seq : ""}|${why}|${shown.asked ?? ""}`;
    if (key === this.shownKey) return;
    this.shownKey = key;
    const first = this.list.children.length === 0;
    const atBottom = first || this.list.scrollHeight - this.list.scrollTop - this.list.clientHeight < 40;
    const computer = (side) => Boolean(side && view.seats && view.seats[side] && view.seats[side] !== "human");
    let previous = null;
    this.list.replaceChildren(...log.map((entry) => {
      const passes = logClasses(entry, view.seat);
      const dice = diceText(entry.dice);
      const opens = entry.step !== null && entry.step !== undefined && entry.step !== previous;
      previous = entry.step;
      const item = el("li", {
        class: ["log-entry", entry.hit ? "hit" : "", passes.includes("mine") ? "mine" : "",
          passes.includes("enemy") ? "enemy" : "", last !== null && entry.step === last ? "last-action" : "",
          opens ? "action-start" : ""].filter(Boolean).join(" "),
        dataset: { seq: entry.seq, side: entry.side || "", hit: entry.hit ? "true" : "false",
          passes: passes.join(" "), step: entry.step ?? "", by: entry.by || "" },
      },
      entry.side ? el("span", { class: "who" }, entry.side) : null,
      el("span", { class: "text" }, entry.text),
      dice ? el("span", { class: "dice", title: "dice" }, `dice ${dice}`) : null,
      entry.clause ? el("button", { type: "button", class: "clause", dataset: { clause: entry.clause },
        title: `Open rule ${entry.clause}` }, entry.clause) : null,
      why && opens && computer(entry.by) ? el("button", { type: "button",
        class: ["why", shown.asked === entry.step ? "asked" : ""].filter(Boolean).join(" "),
        dataset: { step: entry.step },
        title: `Why did ${entry.by} do this? The candidates it weighed`,
        onclick: () => shown.onWhy && shown.onWhy(entry.step) }, "why?") : null);
      item.hidden = !passes.includes(this.filter);
      return item;
    }));
    if (atBottom) this.list.scrollTop = this.list.scrollHeight;
  }

  async openClause(clause) {
    const title = this.popover.querySelector("#clause-title");
    const text = this.popover.querySelector("#clause-text");
    try {
      const rule = await api("GET", `/api/rules/${encodeURIComponent(this.ruleset)}/${encodeURIComponent(clause)}`);
      title.textContent = `${rule.clause}${rule.title ? `: ${rule.title}` : ""}`;
      text.replaceChildren(...renderMarkdown(rule.text));
      this.popover.dataset.clause = rule.clause;
      this.popover.hidden = false;
    } catch (err) {
      showError(err.message);
    }
  }
}

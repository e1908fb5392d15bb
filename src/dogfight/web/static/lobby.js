// The lobby: choose a ruleset, scenario, seats and house rules, create the game and
// hand out the seat links; or open a game file. Everything offered comes from
// GET /api/rulesets; the server validates the request (docs/web-api.md).
import { api, el, readFile, showError } from "/static/api.js";

const UPLOAD = "__upload__";
const SEAT_KINDS = [
  ["human", "Person"],
  ["heuristic", "Computer (heuristic)"],
  ["search", "Computer (hard: search)"],
  ["random", "Computer (random)"],
];

const state = { rulesets: [], uploadText: null, uploadSides: [], gameFile: null };

function currentRuleset() {
  const name = document.getElementById("ruleset").value;
  return state.rulesets.find((r) => r.name === name);
}

function currentScenario() {
  const value = document.getElementById("scenario").value;
  const ruleset = currentRuleset();
  return ruleset ? ruleset.scenarios.find((s) => s.name === value) : undefined;
}

/** Side names of an uploaded scenario: JSON, or the `- name:` items of the YAML `sides:` list.
 * Only to lay out the seat choices; the server reads and validates the file itself. */
export function sidesOfScenarioText(text) {
  try {
    const data = JSON.parse(text);
    if (data && Array.isArray(data.sides)) return data.sides.map((s) => String(s.name));
  } catch {
    // not JSON: read it as YAML below
  }
  const lines = text.split(/\r?\n/);
  const start = lines.findIndex((line) => /^sides:\s*(#.*)?$/.test(line));
  if (start < 0) return [];
  const sides = [];
  let itemIndent = null;
  for (const line of lines.slice(start + 1)) {
    if (/^\s*(#.*)?$/.test(line)) continue;
    const indent = line.length - line.trimStart().length;
    const item = /^(\s*)-\s+(.*)$/.exec(line);
    if (itemIndent === null) {
      if (!item) break;
      itemIndent = indent;
    }
    if (indent < itemIndent || (indent === itemIndent && !item)) break;
    const body = item && indent === itemIndent ? item[2] : indent === itemIndent + 2 ? line.trim() : "";
    const name = /^name:\s*(.+?)\s*(#.*)?$/.exec(body);
    if (name) sides.push(name[1].replace(/^(['"])(.*)\1$/, "$2"));
  }
  return sides;
}

function seatSelect(id, side, kind) {
  const select = el("select", { id, dataset: { side } },
    SEAT_KINDS.map(([value, label]) => el("option", { value, selected: value === kind }, label)));
  return select;
}

function renderSeats(container, sides, prefix) {
  container.replaceChildren(...sides.map((side, i) => el("div", { class: "field" },
    el("label", { for: `${prefix}-${i}` }, side),
    seatSelect(`${prefix}-${i}`, side, i === 0 ? "human" : "heuristic"))));
}

function sidesNow() {
  if (document.getElementById("scenario").value === UPLOAD) return state.uploadSides;
  const scenario = currentScenario();
  return scenario ? scenario.sides : [];
}

function renderScenario() {
  const uploading = document.getElementById("scenario").value === UPLOAD;
  document.getElementById("upload-field").hidden = !uploading;
  const scenario = currentScenario();
  document.getElementById("scenario-desc").textContent = uploading
    ? "Upload a scenario file; it is checked with the same rules as the command line."
    : scenario ? `${scenario.title}: ${scenario.description}` : "";
  renderSeats(document.getElementById("seat-rows"), sidesNow(), "seat");
}

function optionInput(option) {
  const id = `opt-${option.name}`;
  const common = { id, name: option.name, dataset: { option: option.name } };
  const type = option.type || typeof option.default;
  if (option.choices && option.choices.length) {
    return el("select", common, option.choices.map((choice) =>
      el("option", { value: choice, selected: choice === option.default }, choice)));
  }
  if (type === "bool" || type === "boolean") {
    return el("input", { ...common, type: "checkbox", checked: option.default === true });
  }
  if (type === "int" || type === "float" || type === "number") {
    return el("input", { ...common, type: "number", step: type === "int" ? "1" : "any",
      value: option.default });
  }
  return el("input", { ...common, type: "text", value: option.default });
}

function renderOptions() {
  const ruleset = currentRuleset();
  const body = document.querySelector("#options tbody");
  body.replaceChildren(...(ruleset ? ruleset.options : []).map((option) => el("tr", {},
    el("td", {}, el("label", { for: `opt-${option.name}` }, option.name),
      el("div", { class: "default" }, `default: ${option.default}`)),
    el("td", {}, optionInput(option)),
    el("td", { class: "doc" }, option.doc))));
}

function renderRuleset() {
  const ruleset = currentRuleset();
  const select = document.getElementById("scenario");
  select.replaceChildren(
    ...(ruleset ? ruleset.scenarios : []).map((s) => el("option", { value: s.name }, s.title || s.name)),
    el("option", { value: UPLOAD }, "Upload a scenario file…"));
  renderScenario();
  renderOptions();
}

/** Option values that differ from their documented defaults, typed as the option is. */
function chosenOptions() {
  const ruleset = currentRuleset();
  const chosen = {};
  for (const option of ruleset ? ruleset.options : []) {
    const input = document.getElementById(`opt-${option.name}`);
    let value;
    if (input.type === "checkbox") value = input.checked;
    else if (input.type === "number") {
      if (input.value.trim() === "") continue;
      value = Number(input.value);
    } else value = input.value;
    if (value !== option.default) chosen[option.name] = value;
  }
  return chosen;
}

function seatsFrom(container) {
  const seats = {};
  for (const select of container.querySelectorAll("select[data-side]")) {
    seats[select.dataset.side] = select.value;
  }
  return seats;
}

function showCreated(reply) {
  document.getElementById("created-id").textContent = reply.game;
  const links = document.getElementById("seat-links");
  links.replaceChildren();
  for (const [side, seat] of Object.entries(reply.seats)) {
    if (seat.link) {
      const url = new URL(seat.link, location.href).href;
      links.append(el("li", { dataset: { side } },
        `${side} (person): `, el("a", { class: "seat-link", href: url, dataset: { side } }, url), " ",
        el("button", { type: "button", class: "primary play-as", dataset: { side },
          onclick: () => { location.href = url; } }, `Play as ${side}`)));
    } else {
      links.append(el("li", { dataset: { side } }, `${side}: computer (${seat.kind})`));
    }
  }
  const spectator = document.getElementById("spectator-link");
  spectator.href = new URL(reply.spectator, location.href).href;
  spectator.textContent = spectator.href;
  document.getElementById("created").hidden = false;
}

async function create(event) {
  event.preventDefault();
  showError(null);
  const uploading = document.getElementById("scenario").value === UPLOAD;
  if (uploading && state.uploadText === null) {
    showError("choose a scenario file to upload first");
    return;
  }
  const seedText = document.getElementById("seed").value.trim();
  const body = {
    ruleset: document.getElementById("ruleset").value,
    scenario: uploading ? null : document.getElementById("scenario").value,
    scenario_text: uploading ? state.uploadText : null,
    seats: seatsFrom(document.getElementById("seat-rows")),
    options: chosenOptions(),
    seed: seedText === "" ? null : Number(seedText),
  };
  const button = document.getElementById("create");
  button.disabled = true;
  try {
    showCreated(await api("POST", "/api/games", body));
  } catch (err) {
    showError(err.message);
  } finally {
    button.disabled = false;
  }
}

async function chooseUpload() {
  showError(null);
  const file = document.getElementById("scenario-file").files[0];
  state.uploadText = null;
  state.uploadSides = [];
  if (file) {
    state.uploadText = await readFile(file);
    state.uploadSides = sidesOfScenarioText(state.uploadText);
  }
  renderSeats(document.getElementById("seat-rows"), state.uploadSides, "seat");
}

async function chooseGameFile() {
  showError(null);
  const file = document.getElementById("open-file").files[0];
  const rows = document.getElementById("open-seat-rows");
  state.gameFile = null;
  rows.replaceChildren();
  document.getElementById("open-game").disabled = true;
  if (!file) return;
  state.gameFile = await readFile(file);
  let sides = [];
  try {
    const data = JSON.parse(state.gameFile);
    sides = (data.scenario && Array.isArray(data.scenario.sides) ? data.scenario.sides : [])
      .map((s) => String(s.name));
  } catch {
    // the server names what is wrong with the file when it is opened
  }
  renderSeats(rows, sides, "open-seat");
  document.getElementById("open-game").disabled = false;
}

async function openGame() {
  showError(null);
  const seats = seatsFrom(document.getElementById("open-seat-rows"));
  const query = Object.entries(seats).map(([side, kind]) => `${side}:${kind}`).join(",");
  const path = `/api/games/open${query ? `?seats=${encodeURIComponent(query)}` : ""}`;
  try {
    showCreated(await api("POST", path, state.gameFile, "application/json"));
    document.getElementById("created").scrollIntoView();
  } catch (err) {
    showError(err.message);
  }
}

async function main() {
  try {
    state.rulesets = await api("GET", "/api/rulesets");
  } catch (err) {
    showError(err.message);
    return;
  }
  const select = document.getElementById("ruleset");
  select.replaceChildren(...state.rulesets.map((r) => el("option", { value: r.name }, `${r.title} (${r.name})`)));
  select.addEventListener("change", renderRuleset);
  document.getElementById("scenario").addEventListener("change", renderScenario);
  document.getElementById("scenario-file").addEventListener("change", chooseUpload);
  document.getElementById("new-game").addEventListener("submit", create);
  document.getElementById("open-file").addEventListener("change", chooseGameFile);
  document.getElementById("open-game").addEventListener("click", openGame);
  renderRuleset();
  document.body.dataset.ready = "true";
}

main();

// Talking to the dogfight server (docs/web-api.md). Every reply is JSON; a refused
// request carries {"error": "..."} which we raise as an ApiError with that one line.

export class ApiError extends Error {
  constructor(status, message) {
    super(message);
    this.status = status;
  }
}

/** Send a request and return the parsed JSON reply, or throw ApiError with the server's line. */
export async function api(method, path, body, contentType = "application/json") {
  const init = { method, headers: {} };
  if (body !== undefined) {
    init.headers["Content-Type"] = contentType;
    // A string is sent as it is (an uploaded file); anything else as JSON.
    init.body = typeof body === "string" ? body : JSON.stringify(body);
  }
  let reply;
  try {
    reply = await fetch(path, init);
  } catch (err) {
    throw new ApiError(0, `cannot reach the server (${path}): ${err.message}`);
  }
  const text = await reply.text();
  let data = null;
  try {
    data = text ? JSON.parse(text) : null;
  } catch {
    data = null;
  }
  if (!reply.ok) {
    const line = data && typeof data.error === "string" ? data.error
      : `${method} ${path} failed with status ${reply.status}`;
    throw new ApiError(reply.status, line);
  }
  return data;
}

/** Create an element with attributes and children (strings become text nodes). */
export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value === null || value === undefined || value === false) continue;
    if (key === "class") node.className = value;
    else if (key === "text") node.textContent = value;
    else if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    else if (key === "dataset") Object.assign(node.dataset, value);
    else node.setAttribute(key, value === true ? "" : String(value));
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

/** Show one line of error (or clear it with null) in the page's error bar. */
export function showError(message) {
  const bar = document.getElementById("error");
  if (!bar) return;
  bar.textContent = message || "";
  bar.hidden = !message;
}

/** Read a chosen file as text. */
export function readFile(file) {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result));
    reader.onerror = () => reject(new Error(`cannot read ${file.name}`));
    reader.readAsText(file);
  });
}

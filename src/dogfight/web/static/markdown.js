// The rules text's Markdown, as page elements: paragraphs, bullet lists, **bold**,
// *italics* and `code`. Built with DOM nodes and text nodes only, never innerHTML, so
// nothing in the text can become markup.

const INLINE = /(\*\*[^*]+\*\*|`[^`]+`|\*[^*\s][^*]*\*)/;

/** Inline spans of one line of text, as nodes. */
function inline(text) {
  const nodes = [];
  for (const part of text.split(INLINE)) {
    if (!part) continue;
    if (part.startsWith("**") && part.endsWith("**") && part.length > 4) {
      const b = document.createElement("strong");
      b.append(...inline(part.slice(2, -2)));
      nodes.push(b);
    } else if (part.startsWith("`") && part.endsWith("`") && part.length > 2) {
      const c = document.createElement("code");
      c.textContent = part.slice(1, -1);
      nodes.push(c);
    } else if (part.startsWith("*") && part.endsWith("*") && part.length > 2) {
      const i = document.createElement("em");
      i.textContent = part.slice(1, -1);
      nodes.push(i);
    } else {
      nodes.push(document.createTextNode(part));
    }
  }
  return nodes;
}

/** Markdown text as a list of block elements (p, ul). */
export function renderMarkdown(text) {
  const blocks = [];
  let paragraph = null;
  let list = null;
  let item = null;
  const flush = () => { paragraph = null; list = null; item = null; };
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trimEnd();
    if (!line.trim()) { flush(); continue; }
    const bullet = /^\s*[-*]\s+(.*)$/.exec(line);
    if (bullet) {
      if (!list) { list = document.createElement("ul"); blocks.push(list); paragraph = null; }
      item = document.createElement("li");
      item.append(...inline(bullet[1]));
      list.append(item);
    } else if (item && /^\s+/.test(line)) {
      item.append(" ", ...inline(line.trim()));   // a list item's continued line
    } else {
      if (!paragraph) { paragraph = document.createElement("p"); blocks.push(paragraph); list = null; item = null; }
      else paragraph.append(" ");
      paragraph.append(...inline(line.trim()));
    }
  }
  return blocks;
}

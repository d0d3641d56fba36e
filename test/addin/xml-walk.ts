// A tiny XML reader for the manifest tests: enough for attribute-only, well-formed XML like an
// add-in manifest (elements, attributes, text). Not a general parser; no dependency needed.

export interface XmlElement {
  name: string;
  attributes: Record<string, string>;
  children: XmlElement[];
  text: string;
  parent: XmlElement | null;
}

const TOKEN = /<!--[\s\S]*?-->|<\?[\s\S]*?\?>|<(\/?)([\w:.-]+)((?:\s+[\w:.-]+\s*=\s*"[^"]*")*)\s*(\/?)>|([^<]+)/;
const ATTRIBUTE = /([\w:.-]+)\s*=\s*"([^"]*)"/g;

export function parseXml(xml: string): XmlElement {
  const root: XmlElement = { name: "#document", attributes: {}, children: [], text: "", parent: null };
  let current = root;
  // Sticky matching: every character must belong to a token, so malformed markup fails loudly.
  const tokens = new RegExp(TOKEN.source, "y");
  while (tokens.lastIndex < xml.length) {
    const at = tokens.lastIndex;
    const match = tokens.exec(xml);
    if (!match) throw new Error(`Unreadable XML at offset ${at}: ${xml.slice(at, at + 40)}`);
    const [token, closing, name, attrText, selfClosing, text] = match;
    if (token.startsWith("<!--") || token.startsWith("<?")) continue;
    if (text !== undefined) {
      current.text += decode(text);
      continue;
    }
    if (closing) {
      if (current.name !== name) throw new Error(`</${name}> closes <${current.name}>`);
      current = current.parent!;
      continue;
    }
    const attributes: Record<string, string> = {};
    for (const [, key, value] of (attrText ?? "").matchAll(ATTRIBUTE)) attributes[key] = decode(value);
    const element: XmlElement = { name, attributes, children: [], text: "", parent: current };
    current.children.push(element);
    if (!selfClosing) current = element;
  }
  if (current !== root) throw new Error(`<${current.name}> is never closed`);
  return root;
}

export function descendants(element: XmlElement): XmlElement[] {
  return element.children.flatMap((child) => [child, ...descendants(child)]);
}

export function ancestorNames(element: XmlElement): string[] {
  const names: string[] = [];
  for (let node = element.parent; node; node = node.parent) names.push(node.name);
  return names;
}

function decode(value: string): string {
  return value
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&quot;/g, '"')
    .replace(/&apos;/g, "'")
    .replace(/&amp;/g, "&");
}

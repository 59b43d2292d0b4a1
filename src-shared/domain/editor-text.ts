/**
 * Rich text as the hosted service's invoice editor sends it: a TipTap/ProseMirror document
 * `{type: "doc", content: [{type: "paragraph", content: [{type: "text", text: "Acme Inc", marks: [...]}]}, …]}`
 * (its REST schema `tiptapContentSchema`), for `fromDetails`, `paymentDetails`, `noteDetails`, the top and bottom
 * blocks and a line's `name` (docs/decisions/0163-hosted-client-shapes.md). We keep such a document as sent and use
 * its plain text wherever we print plain text (the PDF, e-invoices, e-mails).
 *
 * A document is hostile input until checked: `editorDocProblem` walks it without recursion and bounds its depth,
 * its node count and its text, so neither the check nor the text extraction can exhaust the stack or run long.
 * Pure.
 */

export const EDITOR_MAX_DEPTH = 32;
export const EDITOR_MAX_NODES = 5_000;
export const EDITOR_MAX_TEXT = 20_000;

/** Nodes after which a line ends in the plain text: blocks, list items, table rows. */
const BLOCKS = new Set([
  'paragraph',
  'heading',
  'blockquote',
  'codeBlock',
  'listItem',
  'taskItem',
  'bulletList',
  'orderedList',
  'taskList',
  'tableRow',
  'horizontalRule',
]);

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Why `value` is not an editor document we take, or null when it is one. */
export function editorDocProblem(value: unknown): string | null {
  if (!isObject(value) || value.type !== 'doc') return 'must be an editor document {type: "doc", content: [...]}';
  let nodes = 0;
  let text = 0;
  const stack: { node: unknown; depth: number }[] = [{ node: value, depth: 0 }];
  while (stack.length > 0) {
    const { node, depth } = stack.pop()!;
    if (!isObject(node)) return 'every node of the document must be an object';
    if (++nodes > EDITOR_MAX_NODES) return `the document has more than ${EDITOR_MAX_NODES} nodes`;
    if (depth > EDITOR_MAX_DEPTH) return `the document nests deeper than ${EDITOR_MAX_DEPTH} levels`;
    if (node.type !== undefined && node.type !== null && typeof node.type !== 'string') return 'a node type must be text';
    if (node.text !== undefined && node.text !== null) {
      if (typeof node.text !== 'string') return 'a text node must hold text';
      text += node.text.length;
      if (text > EDITOR_MAX_TEXT) return `the document holds more than ${EDITOR_MAX_TEXT} characters of text`;
    }
    if (node.attrs !== undefined && node.attrs !== null && !isObject(node.attrs)) return 'attrs must be an object';
    if (node.marks !== undefined && node.marks !== null) {
      if (!Array.isArray(node.marks) || !node.marks.every(isObject)) return 'marks must be a list of objects';
    }
    if (node.content !== undefined && node.content !== null) {
      if (!Array.isArray(node.content)) return 'content must be a list of nodes';
      for (let i = node.content.length - 1; i >= 0; i--) stack.push({ node: node.content[i], depth: depth + 1 });
    }
  }
  return null;
}

/**
 * The document's plain text: its text nodes in order, a line break after each block (paragraph, heading, list item…)
 * and for each hardBreak; list items begin with "• "; runs of blank lines become one, and the whole is trimmed. A
 * document that editorDocProblem refuses has no text ('').
 */
export function editorText(doc: unknown): string {
  if (editorDocProblem(doc) !== null) return '';
  let out = '';
  // Pre-order walk with an explicit stack; a block's end is a marker pushed below its children.
  const stack: ({ node: Record<string, unknown> } | { end: string })[] = [{ node: doc as Record<string, unknown> }];
  while (stack.length > 0) {
    const item = stack.pop()!;
    if ('end' in item) {
      if (!out.endsWith('\n')) out += '\n';
      continue;
    }
    const { node } = item;
    const type = typeof node.type === 'string' ? node.type : '';
    if (type === 'hardBreak') out += '\n';
    if (typeof node.text === 'string') out += node.text;
    if (type === 'listItem' || type === 'taskItem') out += '• ';
    if (BLOCKS.has(type)) stack.push({ end: type });
    const content = Array.isArray(node.content) ? (node.content as Record<string, unknown>[]) : [];
    for (let i = content.length - 1; i >= 0; i--) stack.push({ node: content[i]! });
  }
  return out
    .split('\n')
    .map((line) => line.replace(/[ \t]+$/, ''))
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .replace(/^• *\n/gm, '')
    .trim();
}

/** A value that is either plain text or an editor document, as text. */
export function plainText(value: unknown): string | null {
  if (value === null || value === undefined) return null;
  if (typeof value === 'string') return value;
  return editorText(value);
}

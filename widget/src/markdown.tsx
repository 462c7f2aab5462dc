import type { ComponentChildren, VNode } from 'preact';

// A deliberately small markdown subset rendered as Preact nodes. Model output and knowledge
// text are untrusted: everything ends up as text nodes or as the few elements built here, and
// the only attribute taken from the text is an href that passed safeUrl. No innerHTML anywhere.

/** Absolute http(s)/mailto URLs only; everything else (javascript:, data:, relative) is refused. */
export function safeUrl(raw: string | null | undefined): string | null {
  if (!raw) return null;
  try {
    const u = new URL(raw.trim());
    return /^(https?|mailto):$/.test(u.protocol) ? u.href : null;
  } catch {
    return null;
  }
}

export function Link(props: { href: string; children: ComponentChildren; [k: string]: unknown }): VNode {
  return <a {...props} target="_blank" rel="noopener noreferrer" />;
}

// Alternatives, in priority order: code span, **bold**, *italic*, [text](url), bare URL.
// Emphasis needs non-space next to its stars, so "2 * 3 * 4" stays arithmetic. The capture
// groups are read by index below.
const INLINE =
  /(`+)(.*?[^`])\1(?!`)|\*\*(\S.*?)\*\*|\*(\S(?:.*?\S)?)\*|\[([^\]]+)\]\(<?([^\s()<>]+(?:\([^\s()<>]*\))?)>?\)|\b(?:https?:\/\/|mailto:)[^\s<>"]*[^\s<>"'.,;:!?)\]]/g;

export function inline(text: string, inLink = false): ComponentChildren[] {
  const out: ComponentChildren[] = [];
  const re = new RegExp(INLINE.source, 'g');
  let at = 0;
  let m: RegExpExecArray | null;
  while ((m = re.exec(text))) {
    if (m.index > at) out.push(text.slice(at, m.index));
    at = re.lastIndex;
    if (m[2]) out.push(<code>{m[2]}</code>);
    else if (m[3]) out.push(<strong>{inline(m[3], inLink)}</strong>);
    else if (m[4]) out.push(<em>{inline(m[4], inLink)}</em>);
    else {
      // a [label](url) or a bare URL; an unsafe target keeps only its text
      const label = m[5] ? inline(m[5], true) : m[0];
      const href = safeUrl(m[6] ?? m[0]);
      out.push(href && !inLink ? <Link href={href}>{label}</Link> : label);
    }
  }
  if (at < text.length) out.push(text.slice(at));
  return out;
}

const FENCE = /^\s{0,3}(`{3,}|~{3,})/;
const ITEM = /^\s*(?:([-*+])|(\d{1,9})[.)])\s+(.*)$/;
const HEADING = /^\s{0,3}#{1,6}\s+(.*?)\s*#*\s*$/;

/** Lines of a paragraph keep their breaks: answers often use single newlines deliberately. */
function lines(parts: string[]): ComponentChildren[] {
  return parts.flatMap((l, i) => (i ? [<br />, ...inline(l)] : inline(l)));
}

export function renderMarkdown(src: string): VNode[] {
  const ls = src.replace(/\r\n?/g, '\n').split('\n');
  const blocks: VNode[] = [];
  let i = 0;
  const startsBlock = (l: string) => FENCE.test(l) || ITEM.test(l) || HEADING.test(l);

  while (i < ls.length) {
    const l = ls[i]!;
    let m: RegExpMatchArray | null;
    if (!l.trim()) {
      i++;
    } else if ((m = l.match(FENCE))) {
      const fence = m[1]!;
      const code: string[] = [];
      // An unclosed fence (mid-stream) runs to the end, so half an answer still renders sanely.
      for (i++; i < ls.length && !ls[i]!.trimStart().startsWith(fence); i++) code.push(ls[i]!);
      i++;
      blocks.push(
        <pre>
          <code>{code.join('\n')}</code>
        </pre>,
      );
    } else if ((m = l.match(HEADING))) {
      blocks.push(
        <p>
          <strong>{inline(m[1]!)}</strong>
        </p>,
      );
      i++;
    } else if ((m = l.match(ITEM))) {
      const ordered = m[2] !== undefined;
      const items: string[][] = [];
      while (i < ls.length) {
        const cur = ls[i]!;
        const im = cur.match(ITEM);
        if (im && (im[2] !== undefined) === ordered) items.push([im[3]!]);
        else if (cur.trim() && !im && !startsBlock(cur) && /^\s/.test(cur)) items[items.length - 1]!.push(cur.trim());
        else break;
        i++;
      }
      const lis = items.map((it) => <li>{lines(it)}</li>);
      blocks.push(ordered ? <ol start={+m[2]! || 1}>{lis}</ol> : <ul>{lis}</ul>);
    } else {
      const p: string[] = [];
      for (; i < ls.length && ls[i]!.trim() && (p.length === 0 || !startsBlock(ls[i]!)); i++) p.push(ls[i]!.trim());
      blocks.push(<p>{lines(p)}</p>);
    }
  }
  return blocks;
}

export function Markdown({ text }: { text: string }): VNode {
  return <>{renderMarkdown(text)}</>;
}

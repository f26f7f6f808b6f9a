/**
 * Text every UTF-8 store can carry: no lone surrogate (a JSON string can hold one, `\ud800`; DynamoDB, S3
 * and headers cannot). `String.prototype.isWellFormed` is not in every runtime we support.
 */
const LONE_SURROGATE = /\p{Surrogate}/u;

export const isWellFormedText = (text: string): boolean => !LONE_SURROGATE.test(text);

const LONE_SURROGATES = new RegExp(LONE_SURROGATE.source, 'gu');

/** The text with each lone surrogate made U+FFFD, as a UTF-8 encoder would make it. */
export const toWellFormedText = (text: string): string => text.replace(LONE_SURROGATES, '\uFFFD');

/**
 * At most `maxLength` UTF-16 units of well-formed text, cut between characters: a character beyond
 * U+FFFF (an emoji) takes two units and goes whole or not at all.
 */
export function cutText(text: string, maxLength: number): string {
  if (text.length <= maxLength) return text;
  const cut = text.slice(0, maxLength);
  return /[\uD800-\uDBFF]$/.test(cut) ? cut.slice(0, -1) : cut;
}

/**
 * French elides "de", "que" before a vowel ("d'Anna", "qu'Émile"); ICU cannot see a value's first
 * letter, so the choice is made here and passed as `elide` beside `name`: French messages say
 * `{elide, select, yes {d''{name}} other {de {name}}}`, every other locale ignores the value.
 *
 * A vowel counts with or without its accent (É, Â, Œ...). An initial "h" never elides here: whether it is
 * mute (d'Hélène) or aspirated (de Hugues) cannot be told from the spelling, and "de H..." reads as
 * merely formal where a wrong "d'H..." reads as a mistake. "Y" elides before a consonant, where it
 * is a vowel (d'Yves, d'Yvonne), not before a vowel, where it is a consonant (de Yasmine, de Yann).
 */
export function elides(name: string): boolean {
  const letters = name.trim().normalize("NFD").replace(/\p{M}/gu, "").toLowerCase();
  const first = letters.charAt(0);
  if ("aeiouœæ".includes(first) && first !== "") return true;
  return first === "y" && letters.length > 1 && !"aeiouy".includes(letters.charAt(1));
}

/** `{ name, elide }` for a message that puts the name after an elidable word (see `elides`). */
export function nameValues(name: string): { name: string; elide: "yes" | "other" } {
  return { name, elide: elides(name) ? "yes" : "other" };
}

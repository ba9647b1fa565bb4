/** "an authorization", "a sale": the indefinite article our nouns take (none starts with a silent or sounded-as-"you" vowel). */
export const withArticle = (noun: string) => `${/^[aeiou]/i.test(noun) ? "an" : "a"} ${noun}`;

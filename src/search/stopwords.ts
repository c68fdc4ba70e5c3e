// Stop words. Two documented lists, applied to text of every language after lower-casing and folding
// diacritics; only English is covered.
//
// ENGLISH: function words (articles, pronouns, auxiliaries, prepositions, conjunctions, common adverbs):
// the classic Lucene/Snowball English set, extended with contractions written without the apostrophe
// (the analyzer turns "don't" into "dont"). Dropped from items and queries alike.
//
// QUERY: words that say how a person asks, not what they ask for ("how do I", "I want to", "help me",
// "is there a way to", "can you"). Dropped from queries only, so that an item whose name really is
// "help-desk" is still indexed with "help"; a query "help desk" then matches it through "desk".

export const ENGLISH_STOP_WORDS: readonly string[] = [
  'a', 'about', 'above', 'after', 'again', 'against', 'all', 'am', 'an', 'and', 'any', 'are', 'as', 'at',
  'be', 'because', 'been', 'before', 'being', 'below', 'between', 'both', 'but', 'by',
  'can', 'cant', 'cannot', 'could', 'couldnt',
  'did', 'didnt', 'do', 'does', 'doesnt', 'doing', 'dont', 'down', 'during',
  'each', 'either', 'else', 'etc', 'even', 'ever', 'every',
  'few', 'for', 'from', 'further',
  'had', 'hadnt', 'has', 'hasnt', 'have', 'havent', 'having', 'he', 'her', 'here', 'hers', 'herself', 'him',
  'himself', 'his', 'how', 'however',
  'i', 'ie', 'if', 'in', 'into', 'is', 'isnt', 'it', 'its', 'itself',
  'just', 'me', 'might', 'mine', 'more', 'most', 'much', 'must', 'mustnt', 'my', 'myself',
  'neither', 'no', 'nor', 'not', 'now',
  'of', 'off', 'on', 'once', 'only', 'or', 'other', 'ought', 'our', 'ours', 'ourselves', 'out', 'over', 'own',
  'same', 'shall', 'shant', 'she', 'should', 'shouldnt', 'so', 'some', 'such',
  'than', 'that', 'the', 'their', 'theirs', 'them', 'themselves', 'then', 'there', 'these', 'they', 'this',
  'those', 'through', 'thus', 'to', 'too',
  'under', 'until', 'up', 'upon', 'us',
  'very', 'via',
  'was', 'wasnt', 'we', 'were', 'werent', 'what', 'whats', 'when', 'where', 'whether', 'which', 'while', 'who',
  'whom', 'whose', 'why', 'will', 'with', 'within', 'without', 'wont', 'would', 'wouldnt',
  'yet', 'you', 'your', 'yours', 'yourself', 'yourselves',
  'im', 'ive', 'id', 'ill', 'youre', 'youve', 'youd', 'youll', 'were', 'theyre', 'theyve', 'lets', 'thats', 'theres',
];

export const QUERY_STOP_WORDS: readonly string[] = [
  'want', 'wants', 'wanted', 'need', 'needs', 'needed', 'help', 'helps', 'please', 'trying', 'try',
  'way', 'ways', 'looking', 'look', 'anything', 'something', 'someone', 'somebody', 'thing', 'things',
  'get', 'gets', 'getting', 'got', 'make', 'makes', 'making', 'able', 'possible', 'like', 'also',
  'best', 'good', 'easy', 'easily', 'quickly', 'properly', 'actually', 'really', 'maybe', 'currently',
  'instead', 'without', 'keep', 'keeps', 'kind', 'sort', 'stuff', 'lot', 'lots', 'tell', 'show', 'give',
  'know', 'let', 'go', 'going', 'one', 'ones', 'automatically', 'well', 'since', 'already', 'still',
  'anyone', 'everything', 'whenever', 'basically', 'simply', 'right', 'correctly',
];

// GENERIC: words every item of a skill registry is about; as query words they select nothing. Dropped
// from queries only, in the `english+query+generic` variant.
export const QUERY_GENERIC_WORDS: readonly string[] = ['skill', 'skills', 'agent', 'agents', 'tool', 'tools', 'claude', 'assistant'];

export type StopWordList = 'none' | 'english' | 'english+query' | 'english+query+generic';

import { describe, expect, it } from 'vitest';
import { composeExtractiveAnswer, type Passage } from './extractive.js';

const passage = (id: string, score: number, text: string, headingPath: string[] = [], title = id): Passage => ({
  id,
  title,
  url: `https://docs.example.com/${id}`,
  text,
  headingPath,
  score,
});

const KEYS = passage(
  'keys',
  0.93,
  'API keys authenticate server-to-server requests. Each key belongs to one organization.\n\n' +
    'To rotate an API key, open Settings → API keys and click **Rotate** next to the key. ' +
    'The old key keeps working for 24 hours so you can deploy the new one. ' +
    'It is revoked automatically after that.',
  ['Security', 'API keys'],
  'Managing API keys',
);
const BILLING = passage(
  'billing',
  0.41,
  'Invoices are emailed on the first day of each month. You can download past invoices from Settings → Billing. ' +
    'Payment provider keys are managed by Parley.',
  ['Billing'],
);
const LIMITS = passage(
  'limits',
  0.37,
  'Every API key is limited to 60 requests per minute. Exceeding the limit returns HTTP 429 with a Retry-After header.',
  ['API', 'Rate limits'],
);
const SSO = passage(
  'sso',
  0.2,
  'SAML single sign-on is available on the Business plan. Ask your administrator to configure the identity provider.',
  ['Security', 'Single sign-on'],
);
const PASSAGES = [KEYS, BILLING, LIMITS, SSO];

/** Every word of the answer (ellipsis aside) must appear whole in the passages. */
function expectWholeWords(answer: string, passages: Passage[]): void {
  const source = new Set(passages.flatMap((p) => p.text.match(/[\p{L}\p{N}]+/gu) ?? []));
  for (const word of answer.replace(/\u2026$/, '').match(/[\p{L}\p{N}]+/gu) ?? []) {
    expect(source.has(word), `"${word}" is not a whole word of the sources`).toBe(true);
  }
}

describe('composeExtractiveAnswer: answering', () => {
  it('answers "How do I rotate an API key?" with the rotation steps, not unrelated passages', () => {
    const answer = composeExtractiveAnswer('How do I rotate an API key?', PASSAGES, { maxLength: 2000 });
    expect(answer.text).toContain('To rotate an API key, open Settings → API keys and click **Rotate** next to the key.');
    expect(answer.text).not.toContain('Invoices');
    expect(answer.text).not.toContain('SAML');
    expect(answer.text).not.toContain('Payment provider');
    expect(answer.usedPassageIds).toEqual(['keys']);
    expect(answer.coverage).toBe(1);
    expect(answer.text).not.toMatch(/^#/m);
  });

  it('finds the passage that actually holds the answer even when it is not ranked first', () => {
    const answer = composeExtractiveAnswer('What is the rate limit per minute for an API key?', PASSAGES, { maxLength: 600 });
    expect(answer.text).toContain('Every API key is limited to 60 requests per minute.');
    expect(answer.usedPassageIds).toContain('limits');
    expect(answer.text).not.toContain('SAML');
    expect(answer.text).not.toContain('Invoices');
  });

  it('stays within maxLength without cutting words', () => {
    for (const maxLength of [100, 130, 160, 250]) {
      const answer = composeExtractiveAnswer('How do I rotate an API key?', PASSAGES, { maxLength });
      expect(answer.text.length).toBeLessThanOrEqual(maxLength);
      expect(answer.text).toMatch(/rotate an API key/);
      expectWholeWords(answer.text, PASSAGES);
    }
  });

  it('prefers a short complete answer over a truncated longer one when the budget is tight', () => {
    const answer = composeExtractiveAnswer('How do I rotate an API key?', PASSAGES, { maxLength: 100 });
    expect(answer.text).toBe('To rotate an API key, open Settings → API keys and click **Rotate** next to the key.');
  });

  it('weights rare question terms above common ones (IDF over candidates)', () => {
    const exports = passage(
      'analytics',
      0.8,
      'Conversations are listed newest first. Conversations can be filtered by date. ' +
        'Conversations older than a year are archived. Use the export button to download conversations as CSV or JSONL.',
    );
    const answer = composeExtractiveAnswer('How do I export conversations as CSV?', [exports], { maxLength: 400 });
    expect(answer.text.startsWith('Use the export button to download conversations as CSV or JSONL.')).toBe(true);
    expect(answer.text).not.toContain('archived');
  });

  it('uses matching headings to break ties between passages', () => {
    const text = 'Open the dashboard and pick a theme.';
    const a = passage('a', 0.5, text, ['Analytics'], 'Dashboard');
    const b = passage('b', 0.5, text, ['Widget', 'Theme'], 'Widget theme');
    const answer = composeExtractiveAnswer('How do I change the widget theme?', [a, b], { maxLength: 500 });
    expect(answer.text).toBe(text);
    expect(answer.usedPassageIds).toEqual(['b']);
  });
});

describe('composeExtractiveAnswer: readability', () => {
  it('adds the preceding sentence when the chosen one starts with a pronoun', () => {
    const tokens = passage(
      'tokens',
      0.9,
      'Session tokens are issued by the login endpoint. Personal access tokens are created in your profile. ' +
        'They expire after 90 days unless renewed.',
    );
    const answer = composeExtractiveAnswer('When do they expire after renewal?', [tokens], { maxLength: 500 });
    expect(answer.text).toContain('Personal access tokens are created in your profile. They expire after 90 days unless renewed.');
  });

  it('brings the steps along with a sentence that introduces a list, and keeps them a list', () => {
    const widget = passage(
      'widget',
      1,
      'To configure the widget:\n\n1. Open the assistant.\n2. Choose **Widget**.\n3. Pick a theme and position.\n\nThe widget script is loaded asynchronously.',
      ['Widget'],
    );
    const answer = composeExtractiveAnswer('How do I configure the widget?', [widget], { maxLength: 500 });
    expect(answer.text).toBe('To configure the widget:\n\n1. Open the assistant.\n2. Choose **Widget**.\n3. Pick a theme and position.');
  });

  it('brings the code block along with a sentence that introduces it', () => {
    const install = passage(
      'install',
      1,
      'Install the CLI with npm:\n\n```bash\nnpm install -g parley\n```\n\nSee the changelog for release notes.',
      ['Getting started', 'Install'],
    );
    const answer = composeExtractiveAnswer('How do I install the CLI?', [install], { maxLength: 500 });
    expect(answer.text).toBe('Install the CLI with npm:\n\n```bash\nnpm install -g parley\n```');
  });

  it('renders several chosen list items as a list and a lone item as prose', () => {
    const plans = passage(
      'plans',
      1,
      'Pricing overview.\n\n- Free includes 100 conversations per month.\n- Pro includes 10,000 conversations per month.\n- Enterprise has no conversation limit.',
    );
    const many = composeExtractiveAnswer('How many conversations per month are included?', [plans], { maxLength: 500 });
    expect(many.text).toMatch(/^- Free includes 100 conversations per month\.\n- Pro includes 10,000 conversations per month\./m);

    const one = composeExtractiveAnswer('Which tier has no conversation limit?', [plans], { maxLength: 500 });
    expect(one.text).toBe('Enterprise has no conversation limit.');
  });

  it('keeps the whole list an introducing sentence announces', () => {
    const plans = passage('plans', 1, 'Parley has three plans:\n\n- Free\n- Pro\n- Enterprise\n\nPrices are in USD.');
    const answer = composeExtractiveAnswer('Which plans are there?', [plans], { maxLength: 500 });
    expect(answer.text).toBe('Parley has three plans:\n\n- Free\n- Pro\n- Enterprise');
  });

  it('does not answer with a bare title line when a real sentence matches', () => {
    const doc = passage(
      'plain',
      1,
      'Rotating API keys\nTo rotate an API key, open Settings and click Rotate. Old keys expire after a day.',
    );
    const answer = composeExtractiveAnswer('How do I rotate an API key?', [doc], { maxLength: 500 });
    expect(answer.text).toBe('To rotate an API key, open Settings and click Rotate.');
  });

  it('strips markdown heading marks and quote markers from the answer', () => {
    const doc = passage(
      'doc',
      1,
      '## Webhook retries\n\n> Failed webhook deliveries are retried eight times.\n\nRetries use exponential backoff.',
    );
    const answer = composeExtractiveAnswer('How are failed webhook deliveries retried?', [doc], { maxLength: 500 });
    expect(answer.text).toContain('Failed webhook deliveries are retried eight times.');
    expect(answer.text).not.toMatch(/^[#>]/m);
  });

  it("takes its sentences from the best sentence's passage only, in their order there", () => {
    const first = passage(
      'first',
      0.9,
      'Verify the webhook signature before trusting the payload. To verify a webhook signature, compute an HMAC of the body.',
    );
    const second = passage('second', 0.6, 'Webhook signatures are verified with your endpoint secret.');
    const answer = composeExtractiveAnswer('How do I verify webhook signatures?', [second, first], { maxLength: 800 });
    const iSigned = answer.text.indexOf('Verify the webhook signature before');
    const iHeader = answer.text.indexOf('To verify a webhook signature');
    expect(iSigned).toBeGreaterThanOrEqual(0);
    expect(iHeader).toBeGreaterThan(iSigned);
    // A matching sentence of another passage does not join: it may be another topic.
    expect(answer.text).not.toContain('Webhook signatures are verified');
    expect(answer.usedPassageIds).toEqual(['first']);
  });

  it('does not repeat a sentence that appears in two passages', () => {
    const sentence = 'Conversations end automatically after 30 minutes of inactivity.';
    const a = passage('a', 0.9, sentence);
    const b = passage('b', 0.8, `${sentence} Ended conversations stay searchable.`);
    const answer = composeExtractiveAnswer('When do conversations end automatically?', [a, b], { maxLength: 800 });
    expect(answer.text.split(sentence)).toHaveLength(2);
  });

  it('uses at most five extracted sentences', () => {
    const settings = passage(
      'widget',
      1,
      [
        'The widget position can be bottom-right or bottom-left.',
        'The widget theme supports light, dark and custom colors.',
        'The widget welcome message greets visitors.',
        'The widget icon URL replaces the default bubble.',
        'The widget initial state is collapsed or expanded.',
        'The widget allowed origins restrict embedding.',
        'The widget language follows the assistant.',
      ].join(' '),
    );
    const answer = composeExtractiveAnswer('Which widget options exist?', [settings], { maxLength: 5000 });
    expect(answer.text.match(/The widget/g)).toHaveLength(5);
  });

  it('skips near-duplicate sentences (term Jaccard above 0.6)', () => {
    const repetitive = passage(
      'r',
      1,
      Array.from({ length: 6 }, (_, i) => `Widget option ${i} changes widget setting number ${i}.`).join(' '),
    );
    const answer = composeExtractiveAnswer('Which widget option changes a widget setting?', [repetitive], { maxLength: 5000 });
    expect(answer.text).toBe('Widget option 0 changes widget setting number 0.');
  });
});

describe('composeExtractiveAnswer: factoid questions', () => {
  const chopin = passage(
    'chopin',
    1,
    'Chopin was born in Żelazowa Wola. He left Poland in 1830, at the age of 20, shortly before the November Uprising. ' +
      'In Paris he obtained a comfortable living as a composer and piano teacher. He died in Paris in 1849 at the age of 39, probably of pericarditis.',
  );
  const other = passage('other', 0.6, 'The November Uprising was an armed rebellion in partitioned Poland. It began in 1830 in Warsaw.');

  it('answers with the best sentence and its antecedent, the asked span in bold', () => {
    const answer = composeExtractiveAnswer('In what year did Chopin die in Paris?', [chopin, other], { maxLength: 1000 });
    expect(answer.text).toContain(
      'In Paris he obtained a comfortable living as a composer and piano teacher. He died in Paris in **1849** at the age of 39, probably of pericarditis.',
    );
    expect(answer.text).not.toContain('November Uprising');
    expect(answer.text.length).toBeLessThanOrEqual(200);
    expect(answer.usedPassageIds).toEqual(['chopin']);
  });

  it('is one sentence, far shorter than the multi-sentence composition of a procedural question', () => {
    const answer = composeExtractiveAnswer('How old was Chopin when he left Poland?', [chopin, other], { maxLength: 1000 });
    expect(answer.text).toContain('He left Poland in 1830, at the age of **20**, shortly before the November Uprising.');
    expect(answer.text).not.toContain('pericarditis');
    expect(answer.text.length).toBeLessThan(200);
  });
});

describe('composeExtractiveAnswer: factoid length budget', () => {
  it('leaves the antecedent out when it would take the answer past 200 characters', () => {
    const doc = passage(
      'lind',
      1,
      'Jenny Lind, the Swedish soprano whose concert tours of Europe and America in the 1840s and 1850s drew crowds of tens of thousands and earned her the name of the Swedish Nightingale, sang in London. ' +
        'She married the pianist Otto Goldschmidt in Boston in 1852.',
    );
    const answer = composeExtractiveAnswer('When did she marry the pianist Otto Goldschmidt?', [doc], { maxLength: 1000 });
    expect(answer.text).toBe('She married the pianist Otto Goldschmidt in Boston in **1852**.');
  });

  it('joins a second strong sentence when both fit in 250 characters', () => {
    const doc = passage(
      'album',
      1,
      'The album Dangerously in Love won five Grammy Awards at the 2004 ceremony, including Best Contemporary R&B Album, and it sold eleven million copies. ' +
        'Dangerously in Love also won two Grammy Awards for its singles at the 2004 ceremony in Los Angeles.',
    );
    const answer = composeExtractiveAnswer('Which Grammy Awards did Dangerously in Love win?', [doc], { maxLength: 1000 });
    expect(answer.text.length).toBeGreaterThan(200);
    expect(answer.text).toContain('five Grammy Awards');
    expect(answer.text).toContain('two Grammy Awards for its singles');
  });
});

describe('composeExtractiveAnswer: empty answers and determinism', () => {
  const EMPTY = { text: '', usedPassageIds: [], coverage: 0 };

  it('is empty with no passages', () => {
    expect(composeExtractiveAnswer('How do I rotate an API key?', [], { maxLength: 500 })).toEqual(EMPTY);
  });

  it('is empty when no sentence shares a term with the question', () => {
    expect(composeExtractiveAnswer('What is the weather in Paris?', PASSAGES, { maxLength: 500 })).toEqual(EMPTY);
  });

  it('is empty when the question has only stopwords', () => {
    expect(composeExtractiveAnswer('What is it and how does it do that?', PASSAGES, { maxLength: 500 })).toEqual(EMPTY);
  });

  it('is empty when passages have no text', () => {
    expect(composeExtractiveAnswer('API key?', [passage('x', 1, '   ')], { maxLength: 500 })).toEqual(EMPTY);
  });

  it('reports partial coverage when the answer misses some question terms', () => {
    const answer = composeExtractiveAnswer('How do I rotate an API key from the mobile app?', PASSAGES, { maxLength: 2000 });
    expect(answer.coverage).toBeGreaterThan(0);
    expect(answer.coverage).toBeLessThan(1);
  });

  it('is deterministic', () => {
    const runs = Array.from({ length: 3 }, () => composeExtractiveAnswer('How do I rotate an API key?', PASSAGES, { maxLength: 300 }));
    expect(runs[1]).toEqual(runs[0]);
    expect(runs[2]).toEqual(runs[0]);
  });
});

describe('answers from the right place (issue 26)', () => {
  it("answers a page's own question with what follows it, not the question echoed back", () => {
    const page = passage(
      'vpn',
      1,
      'You can exclude visits by IP address in the site settings.\n\n' +
        'Do you use VPNs or often change your IP addresses? And do none of our other blocking options work for your use case?\n\n' +
        'You can then set a special localStorage flag in your browser so your visits are not counted.',
      ['Exclude visits by browser'],
      'Exclude internal traffic',
    );
    const { text } = composeExtractiveAnswer(
      'my ip changes all the time because of a vpn, how do I stop my visits being counted?',
      [page],
      { maxLength: 2000 },
    );
    expect(text).toContain('localStorage flag');
    expect(text).not.toMatch(/\?/);
  });

  it('brings the table or the line a sentence introduces with a colon', () => {
    const logs = passage(
      'logs',
      1,
      'Cryptomator creates log files to help with troubleshooting. The default locations for these log files vary by operating system:\n\n' +
        '| Operating System | Default Log File Location |\n| :--- | :--- |\n| Windows | `%localappdata%\\Cryptomator\\` |\n| macOS | `~/Library/Logs/Cryptomator/` |\n\n' +
        'The log files are rotated.',
      ['Log File Locations'],
      'Troubleshooting',
    );
    expect(composeExtractiveAnswer('where are the log files on a mac', [logs], { maxLength: 2000 }).text).toContain(
      '~/Library/Logs/Cryptomator/',
    );
    const endpoint = passage(
      'acme',
      1,
      'There are many ACME clients.\n\nIf your client needs to be configured with the ACME API endpoint, it is:\n\n' +
        'https://acme-v02.api.letsencrypt.org/directory\n\nWe recommend running tests against our staging API first.',
      ['Getting started'],
      'Getting Started',
    );
    expect(
      composeExtractiveAnswer("what's the API endpoint URL for my acme client config", [endpoint], { maxLength: 2000 }).text,
    ).toContain('https://acme-v02.api.letsencrypt.org/directory');
  });
});

describe('help-center structure (issue 26)', () => {
  it("answers an FAQ entry whose question heading paraphrases the visitor's question with what the page wrote under it", () => {
    const faq = passage(
      'pricing',
      1,
      'We do not charge a fee for accounts. The project is run by a nonprofit. ' +
        'Our hosted service is free and easy to start with, and every new team gets a free workspace.',
      ['FAQ', 'What does it cost? Is it really free?'],
      'Pricing FAQ',
    );
    const other = passage('teams', 0.6, 'A team can invite up to 50 members. Each team has its own workspace.', ['Teams'], 'Teams');
    const answer = composeExtractiveAnswer('is the service really free or is there some catch', [faq, other], { maxLength: 1000 });
    expect(answer.text.startsWith('We do not charge a fee for accounts.')).toBe(true);
  });

  it('keeps the sentence that says how ("To do that, …") after the one that says what', () => {
    const headset = passage(
      'headset',
      1,
      'Most wireless headsets record at a low sample rate. ' +
        'In order to record from a wireless headset, the sample rate must be set to a value the headset supports. ' +
        'To do that, open Audio Settings and set Project Rate to 16000 Hz.\n\nAsk in the forum if this does not help.',
      ['Fixes'],
      'Headset records silence',
    );
    const answer = composeExtractiveAnswer('my wireless headset only records silence', [headset], { maxLength: 1000 });
    expect(answer.text).toContain('the sample rate must be set');
    expect(answer.text).toContain('16000 Hz');
  });
});

// Driving the chat pane as a user does (typing into its input) and reading what it shows.
// Keyboard first; DOM classes only to read what is shown.
import { sleep } from './procs.mjs';

const MOD = 'Control';

/**
 * The newest chat response in the chat view: {index, text, busy}. The chat list is virtualised
 * (old turns leave the DOM), so turns are told apart by their list row's data-index.
 */
export async function lastResponse(page) {
  return page.evaluate(() => {
    let best = { index: -1, text: '', busy: false };
    for (const row of document.querySelectorAll('.interactive-session .monaco-list-row')) {
      const resp = row.querySelector('.interactive-item-container.interactive-response');
      const index = Number(row.getAttribute('data-index'));
      if (resp && index > best.index) {
        best = { index, text: resp.innerText, busy: !!resp.querySelector('.chat-response-loading, .codicon-loading') };
      }
    }
    return best;
  });
}

export async function chatTurnIndex(page) {
  return (await lastResponse(page)).index;
}

/** Text of the first response after turn `after`, once it has stopped changing (answers may stream). */
export async function responseAfter(page, { after, mustMatch, timeoutMs = 45_000 }) {
  const until = Date.now() + timeoutMs;
  let last = '';
  let stableSince = Date.now();
  for (let i = 0; Date.now() < until; i++) {
    const r = await lastResponse(page);
    // VS Code renders a streamed answer progressively and only while its row is in view: a chat
    // left scrolled up (a screenshot's scroll position) stalled one at "Noted these 2 systems for"
    // on CI; every 2 s without a finished answer the list is scrolled to its end
    if (i % 8 === 7 && (r.index <= after || r.busy || r.text !== last)) {
      const box = await page
        .locator('.interactive-session .interactive-list')
        .first()
        .boundingBox()
        .catch(() => null);
      if (box) {
        await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
        await page.mouse.wheel(0, 5000);
      }
    }
    if (r.index > after) {
      if (r.text !== last) {
        last = r.text;
        stableSince = Date.now();
      } else if (!r.busy && mustMatch.test(r.text) && Date.now() - stableSince > 1000) {
        return r.text;
      }
    }
    await sleep(250);
  }
  const all = await page
    .locator('.interactive-session')
    .innerText()
    .catch(() => '');
  throw new Error(
    `no finished chat answer matching ${mustMatch} within ${timeoutMs} ms; newest answer:\n${last || '(none)'}\nchat shows:\n${all.slice(-1200)}`,
  );
}

/** Scroll the chat so the top of the newest answer shows (for the screenshot a user would see). */
export async function showNewestAnswerTop(page) {
  const list = page.locator('.interactive-session .interactive-list').first();
  for (let i = 0; i < 30; i++) {
    const top = await page.evaluate(() => {
      let best;
      let bestIndex = -1;
      for (const row of document.querySelectorAll('.interactive-session .monaco-list-row')) {
        const i = Number(row.getAttribute('data-index'));
        if (row.querySelector('.interactive-response') && i > bestIndex) [best, bestIndex] = [row, i];
      }
      const listEl = document.querySelector('.interactive-session .interactive-list');
      return best && listEl ? best.getBoundingClientRect().top - listEl.getBoundingClientRect().top : 0;
    });
    if (top >= -2) return;
    const box = await list.boundingBox();
    if (!box) return;
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    await page.mouse.wheel(0, Math.max(top - 20, -400));
    await sleep(150);
  }
}

/** Ask @control in the chat pane by typing into the chat input, as a user does. */
export async function askInChat(page, query) {
  const input = page.locator('.interactive-input-part .monaco-editor').first();
  await input.waitFor({ state: 'visible', timeout: 15_000 });
  await input.click();
  await page.keyboard.press(`${MOD}+A`);
  await page.keyboard.press('Backspace');
  await page.keyboard.type(query, { delay: 5 });
  // the "@control" completion widget may be open: close it so Enter sends the message
  await page.keyboard.press('Escape').catch(() => {});
  await input.click();
  await page.keyboard.press('End');
  await page.keyboard.press('Enter');
}

// Progressive enhancement: a "Copy" button under every install line. Without JavaScript the lines
// are plain, selectable text. Never writes HTML (the pages require Trusted Types for script sinks).
/* global document, navigator */

for (const block of document.querySelectorAll('[data-copy]')) {
  const code = block.querySelector('pre');
  if (!code || !navigator.clipboard) continue;
  const button = document.createElement('button');
  button.type = 'button';
  button.className = 'secondary';
  button.textContent = 'Copy';
  const status = document.createElement('span');
  status.setAttribute('role', 'status');
  status.className = 'visually-hidden';
  button.addEventListener('click', () => {
    navigator.clipboard.writeText(code.textContent ?? '').then(
      () => {
        button.textContent = 'Copied';
        status.textContent = 'Copied to the clipboard';
      },
      () => {
        button.textContent = 'Copy failed';
        status.textContent = 'Could not copy; select the text instead';
      },
    );
  });
  block.append(button, status);
}

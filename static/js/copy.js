// A "Copy" button next to a text field (data-copy: the field's selector): copies its text, says
// so on the button (data-copied, data-copy-failed: the words in the page's language). Without
// this script the field is still there to select and copy by hand.
document.addEventListener("click", async (e) => {
  const button = e.target.closest("button[data-copy]");
  if (!button) return;
  const field = document.querySelector(button.dataset.copy);
  if (!field) return;
  const label = button.dataset.label || button.textContent;
  button.dataset.label = label;
  field.select();
  try {
    await navigator.clipboard.writeText(field.value);
    button.textContent = button.dataset.copied || "Copied";
  } catch (err) {
    button.textContent = button.dataset.copyFailed || "Press Ctrl+C";
  }
  setTimeout(() => { button.textContent = label; }, 2500);
});

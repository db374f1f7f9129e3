import { type Page } from '@playwright/test';

/**
 * Picks an option of the select labelled `fieldName`, whether the form renders
 * a native <select> or an MUI Select (a combobox that opens a listbox).
 */
export async function chooseOption(page: Page, fieldName: string, optionName: string) {
  const field = page.getByRole('combobox', { name: fieldName });
  const isNativeSelect = await field.evaluate((element) => element.tagName === 'SELECT');
  if (isNativeSelect) {
    await field.selectOption({ label: optionName });
    return;
  }
  await field.click();
  await page.getByRole('option', { name: optionName }).click();
}

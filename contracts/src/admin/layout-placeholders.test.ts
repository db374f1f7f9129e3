import { campaignTemplateSchema, DEFAULT_TEMPLATE } from './campaign-content';
import { misplacedPlaceholder, placeholderSites } from './layout-placeholders';

const place = (html: string) => misplacedPlaceholder(html)?.place;

describe('where a layout puts its placeholders', () => {
  it('accepts them in text, the shipped layout included', () => {
    expect(misplacedPlaceholder(DEFAULT_TEMPLATE.layout)).toBeUndefined();
    expect(misplacedPlaceholder('<p>{{content}}<b>{{ firstName }}</b></p>{{footer}}')).toBe(
      undefined,
    );
  });

  it('names the tag and attribute of one inside an attribute, however it is quoted or spelt', () => {
    const alt = { kind: 'attribute', tag: 'img', attribute: 'alt' };
    expect(place('<img alt="{{content}}">')).toMatchObject(alt);
    expect(place("<img alt='{{content}}'>")).toMatchObject(alt);
    expect(place('<img alt={{content}}>')).toMatchObject(alt);
    expect(place('<IMG ALT="&#123;&#123;content&#x7d;}">')).toMatchObject(alt);
  });

  it('refuses one in a tag, a comment, a declaration or an element whose text is code', () => {
    expect(place('<p {{content}}>x</p>')).toMatchObject({ kind: 'attribute', tag: 'p' });
    expect(place('<!-- {{content}} -->')).toEqual({ kind: 'markup' });
    expect(place('<!doctype {{content}}>')).toEqual({ kind: 'markup' });
    expect(place('<style>p{color:{{textColor}}}</style>')).toEqual({
      kind: 'element',
      tag: 'style',
    });
    expect(place('<textarea>{{content}}</textarea>')).toEqual({
      kind: 'element',
      tag: 'textarea',
    });
  });

  it('keeps colour slots in colour attributes and the unsubscribe link as a whole href only', () => {
    expect(place('<td style="color:{{brandColor}}" bgcolor="{{textColor}}">x</td>')).toBe(
      undefined,
    );
    expect(place('<a href="{{unsubscribeUrl}}">Leave</a>')).toBeUndefined();
    expect(place('<img title="{{brandColor}}">')).toMatchObject({ attribute: 'title' });
    expect(place('<a href="https://evil.example/?{{unsubscribeUrl}}">x</a>')).toMatchObject({
      attribute: 'href',
    });
    expect(place('<img src="{{unsubscribeUrl}}">')).toMatchObject({ tag: 'img' });
    expect(place('<a href="{{content}}">x</a>')).toMatchObject({ attribute: 'href' });
  });

  it('gives each placeholder its offsets, so a renderer can fill them by place', () => {
    const html = '<img alt="{{content}}"><p>{{content}}</p>';
    expect(placeholderSites(html)).toEqual([
      expect.objectContaining({ name: 'content', start: 10, end: 21, place: expect.any(Object) }),
      { name: 'content', start: 26, end: 37, place: { kind: 'text' } },
    ]);
  });

  it('makes the template schema refuse the layout with the place in its message', () => {
    expect(() =>
      campaignTemplateSchema.validateSync({
        ...DEFAULT_TEMPLATE,
        layout: '<p>{{content}}</p><img alt="{{footer}}">',
      }),
    ).toThrow(
      expect.objectContaining({
        path: 'layout',
        message: {
          key: 'placeholderInAttribute',
          values: { slot: '{{footer}}', attribute: 'alt', tag: 'img' },
        },
      }),
    );
  });
});

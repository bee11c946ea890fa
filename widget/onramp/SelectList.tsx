/** The profile's 'select-currency' (fiat) and 'select-crypto' pages: a list to pick one from. */
export function SelectList<T extends { id: string }>({
  items,
  selected,
  label,
  render,
  onPick,
}: {
  items: readonly T[]
  selected: string | undefined
  label: string
  render: (item: T) => { title: string; icon?: string; detail?: string }
  onPick: (id: string) => void
}) {
  return (
    <div className="wk-list" role="listbox" aria-label={label}>
      {items.map((item) => {
        const { title, icon, detail } = render(item)
        return (
          <button key={item.id} type="button" role="option" aria-selected={item.id === selected} className="wk-list-row" onClick={() => onPick(item.id)}>
            {icon && <img className="wk-chain-icon" src={icon} alt="" />}
            <span className="wk-grow">{title}</span>
            {detail && <span className="wk-muted">{detail}</span>}
          </button>
        )
      })}
    </div>
  )
}

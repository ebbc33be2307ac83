# memjob-completion.bash - bash completion for memjob, installed as
# PREFIX/share/bash-completion/completions/memjob.
#
# Everything comes from memjob itself, so it never disagrees with the
# binary: option names from `memjob --cmdhelp`, an option's values from
# `memjob --cmdhelp=OPTION` (its "NAME=a|b|c" line, and the data sources
# and kernels it lists), shipped job names from the data directory.

_memjob_datadir()
{
	local d=${MEMJOB_DATADIR:-}

	[ -n "$d" ] || d=$(memjob --help 2>/dev/null |
			   sed -n 's/^data directory: //p')
	printf '%s\n' "$d"
}

# The values of option $1 (without its dashes), one a line.
_memjob_values()
{
	case $1 in
	output-format) echo normal csv json; return ;;
	progress) echo auto always never; return ;;
	esac
	memjob --cmdhelp="$1" 2>/dev/null | awk -v o="$1" '
		NR == 1 && index($0, o "=") == 1 {
			v = substr($0, length(o) + 2)
			gsub(/\[[^]]*\]/, "", v)
			if (v ~ /\|/) { gsub(/\|/, " ", v); print v }
		}
		/^    [a-z_0-9]+ / { print $1 }'
}

_memjob()
{
	local cur=${COMP_WORDS[COMP_CWORD]} words d
	local prev=${COMP_WORDS[COMP_CWORD-1]:-} pprev=

	[ "$COMP_CWORD" -ge 2 ] && pprev=${COMP_WORDS[COMP_CWORD-2]}
	# bash splits --opt=val at "=" (COMP_WORDBREAKS): --opt, =, val
	if [ "$cur" = "=" ] && [[ $prev == --* ]]; then
		COMPREPLY=($(compgen -W "$(_memjob_values "${prev#--}")" --))
		return
	fi
	if [ "$prev" = "=" ] && [[ $pprev == --* ]]; then
		COMPREPLY=($(compgen -W "$(_memjob_values "${pprev#--}")" \
			     -- "$cur"))
		return
	fi
	case $cur in
	--*=*)		# "=" is no word break here: the word is --opt=val
		local opt=${cur%%=*}
		COMPREPLY=($(compgen -P "$opt=" -W \
			     "$(_memjob_values "${opt#--}")" -- "${cur#*=}"))
		return
		;;
	--*)
		words=$(memjob --cmdhelp 2>/dev/null |
			awk '/^  [a-z_0-9]+ / { print "--" $1 "=" }')
		words="$words --output-format= --output= --section= --parse-only
		       --dump --cmdhelp --topology --version --help --progress=
		       --list-events"
		compopt -o nospace 2>/dev/null
		COMPREPLY=($(compgen -W "$words" -- "$cur"))
		return
		;;
	esac
	[ "$COMP_CWORD" = 1 ] && words="report plot"
	d=$(_memjob_datadir)
	if [ -n "$d" ] && [ -d "$d/jobs" ]; then
		words="$words $(cd "$d/jobs" && ls -- *.ini 2>/dev/null |
				sed 's/\.ini$//')"
	fi
	COMPREPLY=($(compgen -W "$words" -- "$cur") $(compgen -f -- "$cur"))
}
complete -F _memjob memjob
